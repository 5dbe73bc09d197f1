// The interactive loop (and its headless twin reading requests line by line from stdin).
// Ctrl-C cancels the reply in progress and keeps the chat; at the prompt a second Ctrl-C within
// two seconds, or Ctrl-D, leaves.
import type { ResultStatus } from '../session/events.js';
import type { BuiltSession } from './build-session.js';
import type { CliEnvironment } from './cli-environment.js';
import { EXIT, exitCodeFor, mostSevere } from './exit-codes.js';
import type { LineReader } from './line-reader.js';
import { runInput } from './run-input.js';

const DOUBLE_INTERRUPT_MS = 2000;

export async function runRepl(built: BuiltSession, environment: CliEnvironment, lines: LineReader, interactive: boolean): Promise<number> {
  let current: AbortController | null = null;
  let lastInterruptAt = 0;
  let quit = false;
  const onInterrupt = (): void => {
    if (current) {
      current.abort();
      return;
    }
    const now = Date.now();
    if (now - lastInterruptAt < DOUBLE_INTERRUPT_MS) {
      quit = true;
      lines.close();
      return;
    }
    lastInterruptAt = now;
    environment.stderr.write('\n(Ctrl-C again to leave, or type /exit)\n');
  };
  lines.onInterrupt(onInterrupt);
  const stopListening = environment.onInterrupt(onInterrupt);
  const print = built.settings.json
    ? (text: string) => built.emit({ type: 'info', message: text.trimEnd() })
    : (text: string) => void environment.stdout.write(text);

  built.session.announce();
  let status: ResultStatus = 'completed';
  let internal = false;
  try {
    while (!quit) {
      const line = await lines.read(interactive ? '> ' : '');
      if (line === null) break;
      if (line.trim() === '') continue;
      current = new AbortController();
      const outcome = await runInput(built, line, current.signal, print);
      current = null;
      status = mostSevere(status, outcome.status);
      internal ||= outcome.internal === true;
      if (outcome.exit) break;
    }
  } finally {
    stopListening();
  }
  built.emit({ type: 'result', status, totals: built.session.resultTotals() });
  if (internal) return EXIT.error;
  return interactive ? 0 : exitCodeFor(status);
}
