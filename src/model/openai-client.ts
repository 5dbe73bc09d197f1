// The ModelClient for OpenAI-compatible servers (their chat completions call, chat-http.ts): streaming
// and not, one retry loop with backoff, an idle timeout, abort, reasoning kept apart from the answer.
// Model failures come back as a ChatResult with a classified error, never thrown.
import { completeChat, streamChat, type ChatCall, type ChatChunk, type ChatCompletion } from './chat-http.js';
import { classifyModelError, modelError, retryAfterMsOf, type ModelErrorContext } from './errors.js';
import { requestRules } from './model-profile.js';
import { costWithPrices, lookupModelSettings, type ModelPrices } from './model-settings.js';
import { requestBody, type RequestBody, type RequestRules } from './request-body.js';
import { createReplyCollector, reasoningOf } from './reply-collector.js';
import type { ChatRequest, ChatResult, ModelClient, ModelError, Usage } from './types.js';
import { toUsage, type RawUsage } from './usage.js';

export interface OpenAIClientOptions {
  /** Default: OpenAI's own API. */
  readonly baseURL?: string;
  /** Optional: local servers accept anything, so a placeholder is sent when missing. */
  readonly apiKey?: string;
  /**
   * Streaming: the longest silence allowed before the answer starts and between two chunks.
   * Not streaming: the whole request. Generous by default, since reasoning models think first.
   */
  readonly timeoutMs?: number;
  /** Retries after the first attempt, for rate limits, server errors, connection errors, timeouts. */
  readonly maxRetries?: number;
  /** First backoff; doubles each retry, with jitter. */
  readonly retryBaseMs?: number;
  /** Cap on any single wait, including one a retry-after header asks for. */
  readonly maxRetryWaitMs?: number;
  /** Prices per model for the cost in Usage; default: the built-in model settings. */
  readonly prices?: (model: string) => ModelPrices | null;
  /** What each request to a model carries (temperature, reasoning effort, cache hints); default: from the model settings. */
  readonly rules?: (model: string) => RequestRules;
  /** Injected for tests; must resolve early when the signal aborts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1). */
  readonly random?: () => number;
}

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const DEFAULTS = { timeoutMs: 600_000, maxRetries: 3, retryBaseMs: 1_000, maxRetryWaitMs: 30_000 };

/** What one attempt ended with; `delivered` says whether any text already reached onText. */
type AttemptResult =
  | { readonly ok: true; readonly text: string; readonly reasoning: string; readonly usage: Usage; readonly finishReason: string | null }
  | {
      readonly ok: false;
      readonly error: ModelError;
      readonly partialText: string;
      readonly usage: Usage | null;
      readonly delivered: boolean;
      readonly retryAfterMs: number | null;
    };

/** Per-attempt abort wiring: the caller's signal plus an idle timer. */
interface AttemptControl {
  readonly signal: AbortSignal;
  readonly userAborted: () => boolean;
  readonly timedOut: () => boolean;
  readonly timeoutMs: number;
  /** Restarts the idle timer; called whenever the server shows a sign of life. */
  readonly touch: () => void;
  readonly dispose: () => void;
}

export function createOpenAIClient(options: OpenAIClientOptions = {}): ModelClient {
  const settings = { ...DEFAULTS, ...definedOnly(options) };
  const baseURL = options.baseURL ?? DEFAULT_BASE_URL;
  const prices = options.prices ?? ((model: string) => lookupModelSettings(model).prices);
  const rules = options.rules ?? ((model: string) => requestRules(lookupModelSettings(model), { baseURL }));
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  // Local servers accept any key, but some want the header: a placeholder is sent when there is none.
  const server: Server = { baseURL, apiKey: options.apiKey || 'sk-none' };

  return {
    async chat(request: ChatRequest): Promise<ChatResult> {
      const context: ModelErrorContext = { baseURL, model: request.model };
      const costFor = (usage: Omit<Usage, 'cost'>): Usage => ({ ...usage, cost: costWithPrices(usage, prices(request.model)) });
      const modelRules = rules(request.model);
      const body = requestBody(request, modelRules);
      const headers = modelRules.extraHeaders;
      const reasoningTag = modelRules.reasoningTag ?? null;
      for (let attempt = 0; ; attempt++) {
        const control = controlAttempt(request.signal, settings.timeoutMs);
        let result: AttemptResult;
        try {
          result = request.stream
            ? await streamAttempt(server, { request, body, headers, reasoningTag, context, costFor }, control)
            : await plainAttempt(server, { request, body, headers, reasoningTag, context, costFor }, control);
        } finally {
          control.dispose();
        }
        if (result.ok) return result;
        const { delivered, retryAfterMs, ...failure } = result;
        if (!failure.error.retryable || delivered || attempt >= (request.maxRetries ?? settings.maxRetries)) return failure;
        const backoff = settings.retryBaseMs * 2 ** attempt * (0.5 + random() / 2);
        await sleep(Math.min(retryAfterMs ?? backoff, settings.maxRetryWaitMs), request.signal);
        if (request.signal?.aborted) {
          return { ok: false, error: modelError('aborted', 'The request was cancelled.'), partialText: '', usage: null };
        }
      }
    },
  };
}

/** Where requests go, and the key they carry. */
interface Server {
  readonly baseURL: string;
  readonly apiKey: string;
}

/** The request as the caller gave it (for its callbacks), the body sent for it, and how its result is told. */
interface Outgoing {
  readonly request: ChatRequest;
  readonly body: RequestBody;
  /** Extra headers a user's model settings file asks for. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The model's own reasoning tag, if its settings name one. */
  readonly reasoningTag: string | null;
  /** Names the server and model in error messages. */
  readonly context: ModelErrorContext;
  readonly costFor: (usage: Omit<Usage, 'cost'>) => Usage;
}

async function streamAttempt(server: Server, outgoing: Outgoing, control: AttemptControl): Promise<AttemptResult> {
  const { context, costFor } = outgoing;
  const reply = createReplyCollector(outgoing.request, outgoing.reasoningTag);
  let finishReason: string | null = null;
  let rawUsage: RawUsage | undefined;
  let caught: unknown;
  // Only the HTTP calls sit inside try: an error thrown by onText is our bug and must propagate
  // (the finally in chat() then aborts the request).
  const chunks = await openStream(server, outgoing, control).catch((err: unknown) => {
    caught = err;
    return undefined;
  });
  while (chunks) {
    // Every chunk is a sign of life, reasoning included: a model thinking for minutes is not idle.
    control.touch();
    let next: IteratorResult<ChatChunk>;
    try {
      next = await chunks.next();
    } catch (err) {
      caught = err;
      break;
    }
    if (next.done) break;
    rawUsage = next.value.usage ?? rawUsage;
    const choice = next.value.choices?.[0];
    finishReason = choice?.finish_reason ?? finishReason;
    reply.reasoningField(reasoningOf(choice?.delta));
    reply.content(choice?.delta?.content);
  }
  const usage = rawUsage ? costFor(toUsage(rawUsage)) : null;
  // Once finish_reason arrived the reply is whole; a hiccup while waiting for [DONE] does not undo it.
  if (finishReason !== null && !control.userAborted()) {
    return { ok: true, ...reply.finish(), usage: usage ?? NO_USAGE, finishReason };
  }
  const delivered = reply.delivered();
  const error = failureOf(caught, control, context, delivered);
  return { ok: false, error, partialText: reply.partialText(), usage, delivered, retryAfterMs: retryAfterMsOf(caught) };
}

function openStream(server: Server, outgoing: Outgoing, control: AttemptControl): Promise<AsyncIterator<ChatChunk>> {
  control.touch();
  return streamChat(callOf(server, outgoing, { ...outgoing.body, stream: true, stream_options: { include_usage: true } }, control));
}

async function plainAttempt(server: Server, outgoing: Outgoing, control: AttemptControl): Promise<AttemptResult> {
  const { context, costFor } = outgoing;
  let completion: ChatCompletion;
  try {
    control.touch();
    completion = await completeChat(callOf(server, outgoing, { ...outgoing.body, stream: false }, control));
  } catch (err) {
    const error = failureOf(err, control, context, false);
    return { ok: false, error, partialText: '', usage: null, delivered: false, retryAfterMs: retryAfterMsOf(err) };
  }
  const usage = completion.usage ? costFor(toUsage(completion.usage)) : NO_USAGE;
  const choice = completion.choices?.[0];
  if (!choice) {
    const error = modelError('server', `The model server at ${context.baseURL} answered without any reply text.`);
    return { ok: false, error, partialText: '', usage, delivered: false, retryAfterMs: null };
  }
  const reply = createReplyCollector(outgoing.request, outgoing.reasoningTag);
  reply.reasoningField(reasoningOf(choice.message));
  reply.content(choice.message?.content);
  return { ok: true, ...reply.finish(), usage, finishReason: choice.finish_reason ?? null };
}

/**
 * Why an attempt failed. The caller's abort and our own timer win over whatever the call threw
 * (the abort's own reason, or a body cut when the socket was destroyed). Failures after text reached the user
 * become cut_off, so the caller knows the text is incomplete and is never sent twice.
 */
function failureOf(err: unknown, control: AttemptControl, context: ModelErrorContext, delivered: boolean): ModelError {
  if (control.userAborted()) return modelError('aborted', 'The request was cancelled.');
  const where = `the model server at ${context.baseURL}`;
  const base = control.timedOut()
    ? modelError('timeout', `No answer from ${where} for ${formatDuration(control.timeoutMs)}.`)
    : err === undefined
      ? modelError('cut_off', `The reply from ${where} ended before it was finished (no finish reason).`)
      : err instanceof SyntaxError
        ? // Only the HTTP calls reach here, so this is the server's malformed body, not our bug.
          modelError('server', `The model server at ${context.baseURL} sent a reply that is not valid JSON.`)
        : classifyModelError(err, context);
  if (!delivered || base.kind === 'cut_off') return base;
  if (base.kind === 'connection') return modelError('cut_off', `The connection to ${where} was lost mid-reply.`);
  if (base.kind === 'timeout') {
    return modelError('cut_off', `The model server at ${context.baseURL} stopped sending mid-reply for ${formatDuration(control.timeoutMs)}.`);
  }
  return modelError('cut_off', `The reply was cut off: ${lowerFirst(base.message)}`, base.status);
}

function controlAttempt(userSignal: AbortSignal | undefined, timeoutMs: number): AttemptControl {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onUserAbort = (): void => controller.abort(userSignal?.reason);
  if (userSignal?.aborted) controller.abort(userSignal.reason);
  else userSignal?.addEventListener('abort', onUserAbort, { once: true });
  return {
    signal: controller.signal,
    userAborted: () => userSignal?.aborted === true,
    timedOut: () => timedOut,
    timeoutMs,
    touch: () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
    },
    dispose: () => {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
      // Releases the connection when we stopped reading early (e.g. a throwing onText).
      controller.abort();
    },
  };
}

function callOf(server: Server, outgoing: Outgoing, body: RequestBody, control: AttemptControl): ChatCall {
  return { ...server, body, signal: control.signal, ...(outgoing.headers ? { headers: outgoing.headers } : {}) };
}

/** The server reported no usage (some local servers): zeros, and no cost rather than a wrong one. */
const NO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cost: null };

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
