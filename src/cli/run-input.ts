// One line of user input, whichever mode it came from: a slash command or a request to the model.
import type { ResultStatus } from '../session/events.js';
import type { ChatMode } from '../session/session.js';
import type { BuiltSession } from './build-session.js';
import { findCommand } from './commands/registry.js';

export interface InputOutcome {
  readonly status: ResultStatus;
  readonly exit: boolean;
  /** The line named an unknown command (a usage error in one-shot mode). */
  readonly unknownCommand?: boolean;
}

export async function runInput(built: BuiltSession, line: string, signal: AbortSignal, print: (text: string) => void): Promise<InputOutcome> {
  const context = built.commandContext(print, signal);
  const lookup = findCommand(line, context.commands);
  if (lookup.kind === 'unknown') {
    built.emit({ type: 'error', message: lookup.message });
    return { status: 'error', exit: false, unknownCommand: true };
  }
  if (lookup.kind === 'command') {
    const result = await lookup.command.run(lookup.args, context);
    if (result.request === undefined) return { status: result.status ?? 'completed', exit: result.exit ?? false };
    return { status: await request(built, result.request, signal, result.mode), exit: false };
  }
  return { status: await request(built, line, signal), exit: false };
}

async function request(built: BuiltSession, text: string, signal: AbortSignal, mode?: ChatMode): Promise<ResultStatus> {
  built.session.lastRequestStartHash = built.git ? await built.git.headHash() : null;
  const outcome = await built.session.runRequest(text, signal, mode ? { mode } : {});
  return outcome.status;
}
