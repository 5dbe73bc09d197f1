// The CLI's whole composition root (src/cli/run-cli.ts) driven in this process, with the same private
// HOME, environment and arguments a spawned run gets, but no Node start-up per run. Real git repos, the
// real fake HTTP server, the real prompts: only the process boundary is missing, so tests of argv as a
// process sees it, exit statuses, signals and terminals keep spawning the built CLI (cli.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';
import { baseEnv, CLI, PACKAGE_ROOT, VERSION, type CliOptions, type CliRun } from './cli.js';
import { tempDir } from './temp-repo.js';

/** Same contract as cli.ts's runCli (arguments, cwd, env, stdin; code/stdout/stderr back); no signals. */
export async function runCliInProcess(args: readonly string[], options: Omit<CliOptions, 'onSpawn'>): Promise<CliRun> {
  const home = options.home ?? join(tempDir('tandem-home-'), 'home');
  mkdirSync(home, { recursive: true });
  const stdout = collect();
  const stderr = collect();
  const code = await runCli({
    argv: [...args],
    env: { ...baseEnv(home), ...options.env },
    cwd: options.cwd,
    homeDir: home,
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    columns: undefined,
    packageRoot: PACKAGE_ROOT,
    version: VERSION,
    nodePath: process.execPath,
    cliPath: CLI,
    pid: process.pid,
    onInterrupt: () => () => {},
  });
  const out = stdout.text();
  return {
    code,
    signal: null,
    stdout: out,
    stderr: stderr.text(),
    events: () =>
      out
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, any>),
  };
}

function collect(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return { stream, text: () => text };
}
