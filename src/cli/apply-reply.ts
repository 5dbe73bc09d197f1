// --apply FILE and --apply-clipboard-edits: a reply written elsewhere is parsed in the chat's edit format
// and applied, committed and checked as if the model had sent it; no model request is made.
import { isAbsolute, resolve } from 'node:path';
import type { Settings } from '../config/schema.js';
import { createClipboard } from '../platform/clipboard.js';
import { readConfinedText } from '../platform/text-files.js';
import { EXIT, exitCodeFor } from '../session/exit-codes.js';
import type { BuiltSession } from './session-build.js';
import type { CliEnvironment } from './cli-environment.js';
import { CliError } from './cli-error.js';

/** A saved reply is no bigger than this. */
const MAX_REPLY_BYTES = 8 * 1024 * 1024;

/** The reply to apply, or null when neither option asks for one. */
export async function replyToApply(settings: Settings, environment: CliEnvironment): Promise<string | null> {
  const file = settings.apply;
  if (file !== null) {
    const full = isAbsolute(file) ? file : resolve(environment.cwd, file);
    const read = readConfinedText(full, { maxBytes: MAX_REPLY_BYTES, shown: file });
    if (!read.ok) throw new CliError(`--apply: ${read.message}`, EXIT.usage);
    return read.text;
  }
  if (!settings['apply-clipboard-edits']) return null;
  const read = await createClipboard(environment.env).readText();
  if (!read.ok) throw new CliError(`--apply-clipboard-edits: ${read.message}`, EXIT.error);
  if (read.value.trim() === '') throw new CliError('--apply-clipboard-edits: the clipboard is empty', EXIT.error);
  return read.value;
}

export async function runApply(built: BuiltSession, reply: string, environment: CliEnvironment): Promise<number> {
  const controller = new AbortController();
  const stopListening = environment.onInterrupt(() => controller.abort());
  try {
    built.session.announce();
    built.session.lastRequestStartHash = built.git ? await built.git.headHash() : null;
    const outcome = await built.session.applyReply(reply, controller.signal);
    const status = controller.signal.aborted ? 'interrupted' : outcome.status;
    built.emit({ type: 'result', status, totals: built.session.resultTotals() });
    return exitCodeFor(status);
  } finally {
    stopListening();
  }
}
