// One line of user input, whichever mode it came from: a slash command or a request to the model.
import { SandboxError } from '../platform/sandbox.js';
import type { ResultStatus } from '../session/events.js';
import type { ChatMode } from '../session/session.js';
import type { BuiltSession } from './session-build.js';
import { findCommand } from './commands/registry.js';
import { offerUrls } from './commands/web.js';
import { isTandemError } from '../platform/errors.js';

export interface InputOutcome {
  readonly status: ResultStatus;
  readonly exit: boolean;
  /** The line named an unknown command (a usage error in one-shot mode). */
  readonly unknownCommand?: boolean;
  /** A bug ended the line: the run stops after its result. */
  readonly internal?: boolean;
}

/**
 * Runs one line. A typed failure (git, disk, lock: a TandemError) ends this request with one
 * line and status `error`, and the chat goes on; only a bug (an untyped exception) ends the run.
 */
export async function runInput(built: BuiltSession, line: string, signal: AbortSignal, print: (text: string) => void): Promise<InputOutcome> {
  try {
    return await runLine(built, line, signal, print);
  } catch (error) {
    return failedInput(built, error);
  }
}

export function failedInput(built: BuiltSession, error: unknown): InputOutcome {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n')[0] ?? message;
  if (isTandemError(error)) {
    built.session.logDetail(line, error.detail);
    built.emit({ type: 'error', message: line });
    // /run, /test or !cmd the sandbox could not contain: nothing ran, as if nobody could approve it (exit 4).
    return { status: error instanceof SandboxError ? 'approval_required' : 'error', exit: false };
  }
  built.session.logDetail(line, error instanceof Error ? (error.stack ?? '') : '');
  built.emit({ type: 'error', message: `internal error: ${line} (a bug in tandem; the stack trace is in the session log, .tandem/sessions/)` });
  return { status: 'error', exit: true, internal: true };
}

async function runLine(built: BuiltSession, line: string, signal: AbortSignal, print: (text: string) => void): Promise<InputOutcome> {
  const context = built.commandContext(print, signal);
  const lookup = findCommand(line, context.commands);
  if (lookup.kind === 'unknown') {
    built.emit({ type: 'error', message: lookup.message });
    return { status: 'error', exit: false, unknownCommand: true };
  }
  if (lookup.kind === 'command') {
    const result = await lookup.command.run(lookup.args, context);
    if (result.request === undefined) return { status: result.status ?? 'completed', exit: result.exit ?? false };
    // Only a request of the user's own words offers its URLs: /test and /lint send a command's output, which
    // the repository's code wrote (a URL there would let a sandboxed test reach the network through tandem).
    if (result.request.trim() !== '' && USER_WORDS_COMMANDS.has(lookup.command.name)) await offerUrlsOf(built, result.request, context);
    return { status: await request(built, result.request, signal, result.mode), exit: false };
  }
  await offerUrlsOf(built, line, context);
  return { status: await request(built, line, signal), exit: false };
}

/** Commands whose request is text the user wrote: the mode commands, /editor and /voice. */
const USER_WORDS_COMMANDS: ReadonlySet<string> = new Set(['ask', 'code', 'architect', 'context', 'editor', 'voice']);

/** The URL offer for a message the user typed (--no-detect-urls turns it off). */
async function offerUrlsOf(built: BuiltSession, text: string, context: ReturnType<BuiltSession['commandContext']>): Promise<void> {
  if (built.settings['detect-urls']) await offerUrls(text, context);
}

async function request(built: BuiltSession, text: string, signal: AbortSignal, mode?: ChatMode): Promise<ResultStatus> {
  built.session.lastRequestStartHash = built.git ? await built.git.headHash() : null;
  const outcome = await built.session.runRequest(text, signal, mode ? { mode } : {});
  return outcome.status;
}
