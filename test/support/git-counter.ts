// Counts the git processes a test's code starts: a `git` first on PATH that writes one line per call
// (git's subcommand, then the whole call) and runs the real git. Works whatever module loaded the
// process runner first (test files share a worker's modules, so mocking the runner is not reliable).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { tempDir } from './temp-repo.js';

export interface GitCounter {
  /** PATH with the counting git first (give it to the code under test's environment). */
  readonly path: string;
  /** git's subcommand of each call so far (`config`, `status`, `commit`...), in order. */
  subcommands(): string[];
  /** The calls so far, one line each, for a failure message. */
  calls(): string;
  reset(): void;
}

export function gitCounter(pathEnv = process.env['PATH'] ?? '/usr/bin:/bin'): GitCounter {
  const real = pathEnv.split(delimiter).map((dir) => join(dir, 'git')).find((file) => existsSync(file));
  if (!real) throw new Error('no git on PATH');
  // Removed with the other temp folders after the file (test/support/setup.ts).
  const dir = tempDir('tandem-gitcount-');
  const log = join(dir, 'calls.log');
  const script = [
    '#!/bin/sh',
    'sub=; skip=',
    'for a in "$@"; do',
    '  if [ -n "$skip" ]; then skip=; continue; fi',
    '  case "$a" in -c) skip=1 ;; -*) ;; *) sub="$a"; break ;; esac',
    'done',
    `printf '%s\\t%s\\n' "$sub" "$(printf '%s ' "$@" | tr '\\n' ' ')" >> '${log}'`,
    `exec '${real}' "$@"`,
    '',
  ].join('\n');
  writeFileSync(join(dir, 'git'), script, { mode: 0o755 });
  writeFileSync(log, '');
  const lines = (): string[] => readFileSync(log, 'utf8').split('\n').filter((line) => line !== '');
  return {
    path: `${dir}${delimiter}${pathEnv}`,
    subcommands: () => lines().map((line) => line.slice(0, line.indexOf('\t'))),
    calls: () => lines().map((line) => line.slice(line.indexOf('\t') + 1)).join('\n'),
    reset: () => writeFileSync(log, ''),
  };
}
