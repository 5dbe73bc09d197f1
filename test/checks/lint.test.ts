import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  formatLintFailure,
  lintCommandsFor,
  parseLintCommands,
  runLint,
  shellQuote,
  pathArgument,
} from '../../src/checks/lint.js';
import { keepEnd, runTests } from '../../src/checks/test-runner.js';
import { createProcessRunner } from '../../src/platform/process.js';

const options = { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeoutMs: 10_000 };

describe('lint commands', () => {
  it('parses per-language and plain commands', () => {
    expect(parseLintCommands(['python: ruff check', 'ts: npx eslint --format=unix', 'make lint', '  '])).toEqual([
      { language: 'python', command: 'ruff check' },
      { language: 'typescript', command: 'npx eslint --format=unix' },
      { language: null, command: 'make lint' },
    ]);
    expect(parseLintCommands(['eslint --rule "a:b"'])).toEqual([{ language: null, command: 'eslint --rule "a:b"' }]);
  });

  it('prefers the commands for the file language over the general ones', () => {
    const commands = parseLintCommands(['python: ruff check', 'generic-lint']);
    expect(lintCommandsFor('a/b.py', commands).map((c) => c.command)).toEqual(['ruff check']);
    expect(lintCommandsFor('b.ts', commands).map((c) => c.command)).toEqual(['generic-lint']);
    expect(lintCommandsFor('README', parseLintCommands(['python: ruff']))).toEqual([]);
  });

  it('quotes file names for the shell', () => {
    expect(shellQuote('src/a.py')).toBe('src/a.py');
    expect(shellQuote("it's a file.py")).toBe(`'it'\\''s a file.py'`);
  });
});

describe('runLint and runTests', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'tandem-lint-'));
    await mkdir(join(root, 'src'));
    await writeFile(join(root, 'src', 'ok.py'), 'def f():\n    return 1\n');
    await writeFile(join(root, 'src', 'bad file.py'), 'def f():\n    x = 1\n    return TODO\n');
  });
  afterEach(async () => rm(root, { recursive: true, force: true }));

  it('runs each file from the root and reports non-zero exits with the reported lines', async () => {
    const commands = parseLintCommands(['python: ! grep -Hn TODO']);
    const result = await runLint(createProcessRunner(), root, ['src/ok.py', 'src/bad file.py'], commands, options);
    expect(result.ok).toBe(false);
    expect(result.failures).toHaveLength(1);
    const failure = result.failures[0]!;
    expect(failure.file).toBe('src/bad file.py');
    expect(failure.output).toBe('./src/bad file.py:3:    return TODO\n');
    expect(failure.lines).toEqual([3]);
    const text = 'def f():\n    x = 1\n    return TODO\n';
    const message = formatLintFailure(failure, text);
    expect(message).toContain("## Running: ! grep -Hn TODO './src/bad file.py'");
    expect(message).toContain('>3 |     return TODO');
    expect(message).toContain(' 1 | def f():');
  });

  it('passes every file name so that no command can read it as an option', async () => {
    const names = ['--require=./evil.cjs', '-rf', '-', "--o'dd name.py"];
    await mkdir(join(root, '--require=.'));
    for (const name of names) await writeFile(join(root, name), 'x\n');
    // printf shows each argument exactly as the command received it
    const commands = parseLintCommands(["javascript: printf '%s\\n'", "printf '%s\\n'"]);
    const seen: string[] = [];
    for (const name of names) {
      const result = await runLint(
        { run: async (command, opts) => { const r = await createProcessRunner().run(`${command}; false`, opts); seen.push(r.output.trim()); return r; } },
        root, [name], commands, options,
      );
      expect(result.ok).toBe(false);
    }
    expect(seen).toEqual(names.map((name) => `./${name}`));
    expect(seen.every((arg) => !arg.startsWith('-'))).toBe(true);
    expect(pathArgument('/abs/--x')).toBe('/abs/--x');
  });

  it('passes when every command exits 0', async () => {
    const commands = parseLintCommands(['true']);
    expect(await runLint(createProcessRunner(), root, ['src/ok.py'], commands, options)).toEqual({ ok: true, failures: [] });
  });

  it('runTests keeps the end of a long failing output', async () => {
    const cmd = 'i=0; while [ $i -lt 500 ]; do echo "passing test $i"; i=$((i+1)); done; echo "FAILED test_x: 1 != 2"; exit 1';
    const result = await runTests(createProcessRunner(), root, cmd, 300, options);
    expect(result.ok).toBe(false);
    expect(result.exitCode).toBe(1);
    expect(result.output.length).toBeLessThanOrEqual(300);
    expect(result.output).toMatch(/^\[\.\.\. \d+ characters omitted \.\.\.\]\npassing test \d+\n/);
    expect(result.output.endsWith('FAILED test_x: 1 != 2\n')).toBe(true);
  });

  it('runTests passes on exit 0 and notes a timeout', async () => {
    expect((await runTests(createProcessRunner(), root, 'echo ok', 1000, options)).ok).toBe(true);
    const slow = await runTests(createProcessRunner(), root, 'echo start; sleep 30', 1000, { ...options, timeoutMs: 300 });
    expect(slow.ok).toBe(false);
    expect(slow.timedOut).toBe(true);
    expect(slow.output).toContain('stopped after 300 ms');
  });

  it('keepEnd leaves short text alone', () => {
    expect(keepEnd('short', 10)).toBe('short');
  });
});
