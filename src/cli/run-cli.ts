// The CLI's top level: parse the command line, answer --version / --help at once, and hand everything
// else to the session runner, loaded lazily so that start-up stays light.
import { renderHelp } from './help.js';
import { parseArgs } from './args.js';
import type { CliEnvironment } from './cli-environment.js';
import { escapeControlChars } from '../platform/control-chars.js';
import { CliError } from './cli-error.js';
import { EXIT } from '../session/exit-codes.js';
import { SessionTotals } from '../session/totals.js';
import { isTandemError } from '../platform/errors.js';

/**
 * Our typed errors (TandemErrors: git, disk, process failures) end the run with exit 1 and their
 * one-line message; anything else is a bug and is rethrown.
 */
function asCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (isTandemError(error)) return new CliError(error.message, EXIT.error);
  throw error;
}

/** With --json, a failure before the session started still ends the stream with error and result. */
function writeJsonFailure(environment: CliEnvironment, error: CliError): void {
  const status = error.exitCode === EXIT.approvalRequired ? 'approval_required' : 'error';
  environment.stdout.write(`${JSON.stringify({ type: 'error', message: error.message })}\n`);
  environment.stdout.write(`${JSON.stringify({ type: 'result', status, totals: new SessionTotals().snapshot() })}\n`);
}

export async function runCli(environment: CliEnvironment): Promise<number> {
  if (environment.argv[0] === 'eval') {
    // The eval harness is its own command with its own options; loaded only when asked for.
    const { runEvalCli } = await import('../eval/eval-cli.js');
    return runEvalCli(environment, environment.argv.slice(1));
  }
  if (environment.argv[0] === 'trace') {
    const { runTraceCli } = await import('./trace-command.js');
    return runTraceCli(environment, environment.argv.slice(1));
  }
  const parsed = parseArgs(environment.argv);
  if (!parsed.ok) {
    environment.stderr.write(`tandem: ${parsed.error}\n`);
    return EXIT.usage;
  }
  if (parsed.flags.help) {
    environment.stdout.write(renderHelp());
    return EXIT.ok;
  }
  if (parsed.flags.version) {
    environment.stdout.write(`tandem ${environment.version}\n`);
    return EXIT.ok;
  }
  try {
    const { startTandem } = await import('./start.js');
    return await startTandem(environment, parsed);
  } catch (error) {
    const failure = asCliError(error);
    environment.stderr.write(`tandem: ${escapeControlChars(failure.message, { keepNewlines: true })}\n`);
    if (parsed.flags.json) writeJsonFailure(environment, failure);
    return failure.exitCode;
  }
}
