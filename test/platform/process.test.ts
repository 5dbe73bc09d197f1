import { mkdtemp, rm, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProcessRunner, OutputCollector, ProcessError } from '../../src/platform/process.js';
import { isRunning } from '../support/pid-file.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

// A killed child whose parent shell is gone may linger as a zombie until PID 1 reaps it; a zombie is dead.
describe('createProcessRunner', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tandem-proc-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs in the given cwd and reports the exit code', async () => {
    const result = await createProcessRunner().run('pwd; exit 3', { cwd: dir, timeoutMs: 10_000, env });
    expect(result.exitCode).toBe(3);
    expect(result.output.trim()).toBe(dir);
    expect(result.timedOut).toBe(false);
    expect(result.truncated).toBe(false);
  });

  it('merges stdout and stderr in the order they were written', async () => {
    const cmd = 'echo one; echo two >&2; echo three; sh -c "echo four >&2"';
    const result = await createProcessRunner().run(cmd, { cwd: dir, timeoutMs: 10_000, env });
    expect(result.output).toBe('one\ntwo\nthree\nfour\n');
    expect(result.exitCode).toBe(0);
  });

  it('keeps a trailing comment from breaking the command', async () => {
    const result = await createProcessRunner().run('echo hi # a comment', { cwd: dir, timeoutMs: 10_000, env });
    expect(result.output).toBe('hi\n');
  });

  it('closes stdin so a reading command ends at once', async () => {
    const result = await createProcessRunner().run('cat; echo "done $?"', { cwd: dir, timeoutMs: 10_000, env });
    expect(result.timedOut).toBe(false);
    expect(result.output).toBe('done 0\n');
  });

  it('passes only the given environment', async () => {
    const result = await createProcessRunner().run('echo "[$FOO][$HOME]"', {
      cwd: dir,
      timeoutMs: 10_000,
      env: { ...env, FOO: 'bar' },
    });
    expect(result.output).toBe('[bar][]\n');
  });

  it('kills the shell and its children at the timeout', async () => {
    const pidFile = join(dir, 'child.pid');
    const cmd = `sleep 30 & echo $! > ${pidFile}; echo started; wait`;
    const result = await createProcessRunner().run(cmd, { cwd: dir, timeoutMs: 500, env });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.output).toBe('started\n');
    const childPid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(childPid).toBeGreaterThan(0);
    expect(isRunning(childPid)).toBe(false);
    // No wall-clock assertion: the guard against waiting out the 30 s child is this test's timeout.
  }, 10_000);

  it('does not wait for a background child that keeps the output pipe open', async () => {
    const result = await createProcessRunner().run('sleep 30 & echo bye', { cwd: dir, timeoutMs: 20_000, env });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    // No wall-clock assertion: the guard against waiting out the 30 s child is this test's timeout.
  }, 10_000);

  it('runs without a limit when the timeout is Infinity', async () => {
    const result = await createProcessRunner().run('sleep 0.2; echo late', { cwd: dir, timeoutMs: Infinity, env });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, output: 'late\n' });
  });

  it('stops on abort', async () => {
    const controller = new AbortController();
    const running = createProcessRunner().run('echo go; sleep 30', {
      cwd: dir,
      timeoutMs: 20_000,
      env,
      signal: controller.signal,
    });
    controller.abort();
    const result = await running;
    expect(result.exitCode).toBeNull();
    expect(result.timedOut).toBe(false);
  });

  it('truncates long output keeping the head and the end', async () => {
    const cmd = 'echo FIRST; i=0; while [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done; echo LAST';
    const result = await createProcessRunner().run(cmd, { cwd: dir, timeoutMs: 10_000, env, maxOutputBytes: 1000 });
    expect(result.truncated).toBe(true);
    expect(result.output.startsWith('FIRST\n')).toBe(true);
    expect(result.output.endsWith('LAST\n')).toBe(true);
    expect(result.output).toMatch(/\[\.\.\. \d+ bytes of output omitted \.\.\.\]/);
    expect(result.output.length).toBeLessThan(1200);
  });

  it('rejects with a typed error when the cwd does not exist', async () => {
    const running = createProcessRunner().run('true', { cwd: join(dir, 'missing'), timeoutMs: 1000, env });
    await expect(running).rejects.toBeInstanceOf(ProcessError);
  });
});

describe('OutputCollector', () => {
  it('counts exactly the dropped bytes', () => {
    const collector = new OutputCollector(10);
    collector.add(Buffer.from('abcdefgh'));
    collector.add(Buffer.from('ijklmnop'));
    expect(collector.truncated).toBe(true);
    expect(collector.text()).toBe('abcde\n[... 6 bytes of output omitted ...]\nlmnop');
  });

  it('returns everything under the budget', () => {
    const collector = new OutputCollector(10);
    collector.add(Buffer.from('abc'));
    collector.add(Buffer.from('defghij'));
    expect(collector.truncated).toBe(false);
    expect(collector.text()).toBe('abcdefghij');
  });
});
