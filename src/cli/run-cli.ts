// The CLI's top level: parse the command line, answer --version / --help at once, and hand everything
// else to the session runner, loaded lazily so that start-up stays light.
import { renderHelp } from './help.js';
import { parseArgs } from './args.js';
import type { CliEnvironment } from './cli-environment.js';
import { CliError, EXIT } from './exit-codes.js';

export async function runCli(environment: CliEnvironment): Promise<number> {
  if (environment.argv[0] === 'eval') {
    // The eval harness is its own command with its own options; loaded only when asked for.
    const { runEvalCli } = await import('../eval/eval-cli.js');
    return runEvalCli(environment, environment.argv.slice(1));
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
    if (error instanceof CliError) {
      environment.stderr.write(`tandem: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
