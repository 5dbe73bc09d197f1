// How a typed failure (git, disk, lock) ends a request, not the chat: one line for the user, the long
// form in the session log, and a note on the last reply so the model knows its edits did not land.
import { SandboxError } from '../platform/sandbox.js';
import type { Conversation } from './conversation.js';
import type { EmitEvent } from './events.js';
import type { RequestOutcome } from './session-types.js';
import { isTandemError } from '../platform/errors.js';

export interface ErrorEndingDeps {
  readonly emit: EmitEvent;
  /** Keeps the long form of the failure (git's hints, a stack) in the session log. */
  readonly logDetail: (message: string, detail: unknown) => void;
  /** The chat's conversation, whose last reply gets the note. */
  readonly conversation: Conversation;
}

/** Bugs (anything but a TandemError) are rethrown: they are never reported as if the user caused them. */
export function endWithError(error: unknown, modelNote: string | null, deps: ErrorEndingDeps): RequestOutcome {
  if (!isTandemError(error)) throw error;
  const message = error.message.split('\n')[0] ?? error.message;
  deps.logDetail(message, error.detail);
  deps.emit({ type: 'error', message });
  if (modelNote) deps.conversation.noteOnLastReply(`${modelNote}: ${message}`);
  // A command the sandbox could not contain was not run: like an approval nobody could give (exit 4).
  if (error instanceof SandboxError) return { status: 'approval_required', message };
  return { status: 'error', message };
}
