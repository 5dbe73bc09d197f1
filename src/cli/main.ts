#!/usr/bin/env -S node --
// The composition root's entry: the only place that reads process.*; everything else receives it.
// The shebang ends node's own options with `--`: Node 20 otherwise takes `--env-file` from anywhere
// in the command line, even after the script, and tandem would never see its own `--env-file`.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../platform/clock.js';
import { runCli } from './run-cli.js';

/** The folder holding tandem's package.json (with prompts/ and queries/), and its version. */
function findPackage(): { root: string; version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'tandem') return { root: dir, version: pkg.version ?? '0.0.0' };
    } catch {
      // not here; keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('tandem: cannot find its own package.json');
    dir = parent;
  }
}

const { root: packageRoot, version } = findPackage();

runCli({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  homeDir: homedir(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stdinIsTTY: Boolean(process.stdin.isTTY),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  stderrIsTTY: Boolean(process.stderr.isTTY),
  columns: process.stderr.columns,
  packageRoot,
  version,
  nodePath: process.execPath,
  cliPath: fileURLToPath(import.meta.url),
  pid: process.pid,
  clock: systemClock,
  onInterrupt(handler) {
    const onSigint = (): void => handler('SIGINT');
    const onSigterm = (): void => handler('SIGTERM');
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
    return () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
    };
  },
}).then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => {
    // A bug, not a user's mistake: one line, and the stack only when asked for.
    const message = error instanceof Error ? error.message : String(error);
    const stack = process.env['TANDEM_DEBUG'] && error instanceof Error ? `\n${error.stack ?? ''}` : ' (set TANDEM_DEBUG=1 for details)';
    process.stderr.write(`tandem: internal error: ${message}${stack}\n`);
    exitWhenFlushed(1);
  },
);

/**
 * Exits as soon as the result is written: a worker, a timer or a socket left alive must not keep a
 * finished run waiting (scripts measure tandem by when it returns).
 */
function exitWhenFlushed(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const done = (): void => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}
