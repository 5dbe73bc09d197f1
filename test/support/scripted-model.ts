// A model client that answers from a script, in process: each request takes the next scripted turn.
// For in-process tests of the session loop (the spawned-CLI tests use fake-openai-server.ts instead).
import type { ChatRequest, ChatResult, ModelClient, ModelErrorKind, Usage } from '../../src/model/types.js';

export type ScriptedTurn =
  /** The whole reply, streamed as one delta. */
  | string
  /** A failed request, as the real client reports it: a classified error, never a throw. */
  | { readonly error: ModelErrorKind; readonly message?: string; readonly partial?: string }
  /** Streams `partial`, then waits for the request's abort signal and reports an interruption. */
  | { readonly untilAborted: true; readonly partial: string };

const USAGE: Usage = { promptTokens: 100, completionTokens: 20, cachedTokens: 0, cost: null };

export class ScriptedModel implements ModelClient {
  /** Every request made, in order, as sent. */
  readonly requests: ChatRequest[] = [];

  constructor(private readonly turns: ScriptedTurn[]) {}

  /** The text of the last user message of request `n` (0-based). */
  lastUserMessage(n: number): string {
    const messages = this.requests[n]?.messages ?? [];
    return [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  }

  get unused(): number {
    return this.turns.length;
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    this.requests.push(request);
    const turn = this.turns.shift();
    if (turn === undefined) throw new Error(`scripted model: no turn left for request ${this.requests.length}`);
    if (typeof turn === 'string') {
      request.onText?.(turn);
      return { ok: true, text: turn, usage: USAGE, finishReason: 'stop' };
    }
    if ('error' in turn) {
      if (turn.partial) request.onText?.(turn.partial);
      const message = turn.message ?? `scripted ${turn.error} error`;
      return { ok: false, error: { kind: turn.error, message, retryable: false }, partialText: turn.partial ?? '', usage: null };
    }
    request.onText?.(turn.partial);
    await abortOf(request.signal);
    return { ok: false, error: { kind: 'aborted', message: 'interrupted', retryable: false }, partialText: turn.partial, usage: null };
  }
}

/** Always answers `text` (commit messages, summaries), however often it is asked. */
export function fixedReplyModel(text: string): ModelClient & { readonly requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async chat(request) {
      requests.push(request);
      return { ok: true, text, usage: USAGE, finishReason: 'stop' };
    },
  };
}

function abortOf(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return Promise.reject(new Error('scripted model: an untilAborted turn needs a request signal'));
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
