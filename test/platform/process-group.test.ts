// The one process runner's two stop modes beyond what the command runner and git use: a program kept in
// tandem's own group (the eval's tandem runs) is stopped alone, and with no pipe grace every byte it
// printed is read.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runProcessGroup, type GroupRunOptions } from '../../src/platform/process-group.js';
import { isRunning, killLeftover, pidWritten } from '../support/pid-file.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
let dir: string;
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) killLeftover(pid);
  rmSync(dir, { recursive: true, force: true });
});

function options(extra: Partial<GroupRunOptions>): GroupRunOptions {
  return { cwd: dir, env, timeoutMs: 60_000, stderr: true, stopGraceMs: 0, killGroupOnExit: false, pipeGraceMs: Infinity, ...extra };
}

describe('runProcessGroup', () => {
  it('reads all of the output and stderr apart, with the exit code', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-group-'));
    let out = '';
    let err = '';
    const script = 'i=0; while [ $i -lt 5000 ]; do echo "line $i"; i=$((i+1)); done; echo oops >&2; exit 3';
    const result = await runProcessGroup('/bin/sh', ['-c', script], options({ onStdout: (c) => (out += c), onStderr: (c) => (err += c) }));
    expect(result).toEqual({ exitCode: 3, timedOut: false, aborted: false, pipesHeld: false });
    expect(out.split('\n')).toHaveLength(5001);
    expect(err).toBe('oops\n');
  });

  it('outside a group of its own, an abort stops the program alone', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-group-'));
    const controller = new AbortController();
    // The shell waits on a child of its own; only the shell is signalled, so the child lives on.
    const running = runProcessGroup('/bin/sh', ['-c', 'sleep 30 >/dev/null 2>&1 & echo $! > child.pid; wait'], options({ ownGroup: false, signal: controller.signal }));
    const child = await pidWritten(dir, 'child.pid');
    leftovers.push(child);
    controller.abort();
    const result = await running;
    expect(result.aborted).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(isRunning(child)).toBe(true);
  }, 15_000);

  it('rejects when the program cannot be started', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-group-'));
    await expect(runProcessGroup(join(dir, 'missing'), [], options({}))).rejects.toThrow(/ENOENT/);
  });
});
