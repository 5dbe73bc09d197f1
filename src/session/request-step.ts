// One request to a model: check it fits, log it, send it, and let its reply join the conversation.
// A failed reply (interrupted, a server error) ends the request with its outcome and is never applied.
import type { BuiltMessages } from '../coders/messages.js';
import type { Asker } from '../coders/ports.js';
import type { ModelProfile } from '../model/model-profile.js';
import type { ChatResult, ModelClient } from '../model/types.js';
import type { Clock } from '../platform/clock.js';
import { checkContextWindow } from './context-window.js';
import type { Conversation } from './conversation.js';
import type { EmitEvent } from './events.js';
import type { RequestOutcome } from './session-types.js';
import type { SessionTotals } from './totals.js';

export interface RequestStepDeps {
  readonly client: ModelClient;
  readonly asker: Asker;
  readonly emit: EmitEvent;
  readonly totals: SessionTotals;
  readonly stream: boolean;
  /** Times the call for traces; absent: the usage event carries no timing. */
  readonly clock?: Clock;
}

export type ReplyResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly outcome: RequestOutcome };

/** A request that may be too big for the model's window: the user says whether it goes out. */
export async function requestWithinWindow(
  built: BuiltMessages,
  message: string,
  model: ModelProfile,
  conversation: Conversation,
  deps: RequestStepDeps,
  signal?: AbortSignal,
): Promise<ReplyResult> {
  const room = checkContextWindow(built, model.contextWindow, model.tokens);
  if (room) {
    const answer = await deps.asker.confirm(room, 'oversized-request');
    if (answer === 'unanswerable') return { ok: false, outcome: { status: 'approval_required', message: room } };
    if (answer === 'no') return { ok: false, outcome: { status: 'completed', message: 'Request not sent.' } };
  }
  return requestReply(built, message, model.name, conversation, deps, signal);
}

/** Sends `built` (whose last request is `message`) and returns the reply that joined the conversation. */
export async function requestReply(
  built: BuiltMessages,
  message: string,
  model: string,
  conversation: Conversation,
  deps: RequestStepDeps,
  signal?: AbortSignal,
): Promise<ReplyResult> {
  conversation.logRequest(message);
  const reply = await send(built, model, deps, signal);
  if (!reply.ok) return { ok: false, outcome: failedReply(message, withImageHint(built, reply), conversation, deps.emit) };
  conversation.remember(message, reply.text);
  return { ok: true, text: reply.text };
}

async function send(built: BuiltMessages, model: string, deps: RequestStepDeps, signal?: AbortSignal): Promise<ChatResult> {
  const { emit, totals } = deps;
  emit({ type: 'waiting' });
  totals.requests++;
  const timer = callTimer(deps.clock);
  const result = await deps.client.chat({
    model,
    messages: built.messages,
    stream: deps.stream,
    signal,
    onText: (delta) => {
      timer.firstToken();
      emit({ type: 'assistant_delta', text: delta });
    },
    onReasoning: (delta) => {
      timer.firstToken();
      emit({ type: 'reasoning_delta', text: delta });
    },
    stablePrefix: stablePrefixOf(built),
  });
  if (result.usage) {
    totals.addUsage(result.usage);
    const finishReason = result.ok ? result.finishReason : null;
    emit({ type: 'usage', ...result.usage, sessionCost: totals.cost, model, finishReason, ...timer.facts() });
  }
  if (result.ok && result.reasoning) emit({ type: 'reasoning', text: result.reasoning });
  if (result.ok) emit({ type: 'assistant', text: result.text, interrupted: false });
  if (result.ok && result.reasoning && result.text.trim() === '') {
    emit({ type: 'warning', message: 'The reply ended inside its reasoning, before any answer: nothing from it was applied.' });
  }
  return result;
}

/** When the call started and its first token came, read from the clock (nothing without one). */
function callTimer(clock: Clock | undefined): { firstToken(): void; facts(): { durationMs?: number; firstTokenMs?: number } } {
  if (!clock) return { firstToken: () => {}, facts: () => ({}) };
  const start = clock.now().getTime();
  let first: number | undefined;
  return {
    firstToken: () => {
      first ??= clock.now().getTime() - start;
    },
    facts: () => ({ durationMs: clock.now().getTime() - start, ...(first === undefined ? {} : { firstTokenMs: first }) }),
  };
}

function failedReply(message: string, reply: Extract<ChatResult, { ok: false }>, conversation: Conversation, emit: EmitEvent): RequestOutcome {
  const partial = reply.partialText;
  if (reply.error.kind === 'aborted') {
    emit({ type: 'assistant', text: partial, interrupted: true });
    conversation.remember(message, `${partial}${partial ? '\n\n' : ''}[interrupted by the user]`);
    return { status: 'interrupted', message: 'Interrupted; no edits from the partial reply were applied.' };
  }
  if (partial) emit({ type: 'assistant', text: partial, interrupted: true });
  const note = partial ? ' No edits from the partial reply were applied.' : '';
  emit({ type: 'error', message: `${reply.error.message}${note}` });
  return { status: 'error', message: reply.error.message };
}

/** The messages before the conversation (history, then this turn's one message): what a prompt cache can keep. */
function stablePrefixOf(built: BuiltMessages): number {
  const history = built.parts.find((part) => part.name === 'history')?.messages[0];
  const start = history ? built.messages.indexOf(history) : -1;
  return start >= 0 ? start : built.messages.length - 1;
}

/** A server that rejects a request carrying images is most likely one without image support: say so once. */
function withImageHint(built: BuiltMessages, reply: Extract<ChatResult, { ok: false }>): Extract<ChatResult, { ok: false }> {
  const images = built.messages.some((m) => (m.images ?? []).length > 0);
  if (!images || (reply.error.kind !== 'bad_request' && reply.error.kind !== 'server')) return reply;
  const message = `${reply.error.message} The request carried images: this server or model may not take images (drop them with /drop).`;
  return { ...reply, error: { ...reply.error, message } };
}
