// --message: one request (or slash command) with its reflections, then the exit code of DESIGN.md.
import type { BuiltSession } from './session-build.js';
import type { CliEnvironment } from './cli-environment.js';
import { EXIT, exitCodeFor } from '../session/exit-codes.js';
import { runInput } from './run-input.js';

export async function runOneShot(built: BuiltSession, message: string, environment: CliEnvironment): Promise<number> {
  const controller = new AbortController();
  let interrupted = false;
  const stopListening = environment.onInterrupt(() => {
    interrupted = true;
    controller.abort();
  });
  try {
    built.session.announce();
    const print = built.settings.json
      ? (text: string) => built.emit({ type: 'info', message: text.trimEnd() })
      : (text: string) => void environment.stdout.write(text);
    const outcome = await runInput(built, message, controller.signal, print);
    const status = interrupted ? 'interrupted' : outcome.status;
    built.emit({ type: 'result', status, totals: built.session.resultTotals() });
    if (outcome.unknownCommand) return EXIT.usage;
    return exitCodeFor(status);
  } finally {
    stopListening();
  }
}
