// Commands stop when asked: Ctrl-C ends the whole process group, a child that left the group (setsid)
// does not hold the run past its timeout, output streams as it arrives, and a hanging git hook is killed.
import { writeFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitFiles } from '../../src/git/commit.js';
import { GitOperationError } from '../../src/git/errors.js';
import { createProcessRunner } from '../../src/platform/process.js';
import { makeFixture, type Fixture } from '../git/git-fixture.js';
import { isRunning, killLeftover, pidWritten, readPid } from '../support/pid-file.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

let dir: string;
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) killLeftover(pid);
  rmSync(dir, { recursive: true, force: true });
});

describe('the process runner', () => {
  it('aborting ends the command and every process of its group', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-life-'));
    const controller = new AbortController();
    const running = createProcessRunner().run('sleep 30 & echo $! > child.pid; wait', { cwd: dir, env, timeoutMs: 60_000, signal: controller.signal });
    const child = await pidWritten(dir, 'child.pid');
    leftovers.push(child);
    controller.abort();
    const result = await running;
    expect(result.exitCode).toBeNull();
    // SIGKILL went to the whole group; on a busy machine the child may still be on its way out when the
    // shell's end is seen: it must be gone soon after, not necessarily at that instant.
    expect(await goneWithin(child, 5_000)).toBe(true);
  }, 15_000);

  it('a setsid child does not hold the run past the timeout, and the output says one was left', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-life-'));
    const result = await createProcessRunner().run('setsid sleep 25 & echo $! > escaped.pid; sleep 30', { cwd: dir, env, timeoutMs: 500 });
    const escaped = readPid(join(dir, 'escaped.pid'));
    expect(escaped, 'the command wrote the pid of the child it let escape').not.toBeNull();
    leftovers.push(escaped!);
    expect(result.timedOut).toBe(true);
    expect(result.output).toMatch(/left the command's process group/);
  }, 15_000);

  it('streams output as it arrives', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-life-'));
    const controller = new AbortController();
    const seen: string[] = [];
    // The command waits until it is stopped: only output streamed before the end can stop it.
    const result = await createProcessRunner().run('echo first; sleep 30', {
      cwd: dir,
      env,
      timeoutMs: 60_000,
      signal: controller.signal,
      onOutput: (text) => {
        seen.push(text);
        controller.abort();
      },
    });
    expect(seen.join('')).toBe('first\n');
    expect(result.output).toBe('first\n');
  }, 15_000);
});

describe('git calls', () => {
  let fx: Fixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('a hanging hook is killed at the timeout, with one line saying so', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-life-'));
    fx = await makeFixture();
    await fx.write({ 'a.txt': 'one\n' });
    const hook = join(fx.root, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, `#!/bin/sh\necho $$ > ${join(dir, 'hook.pid')}\nsleep 30\n`);
    chmodSync(hook, 0o755);

    // verify: the user asked for their hooks (--git-commit-verify); a hook that hangs must not hang tandem.
    const commit = commitFiles(fx.root, ['a.txt'], 'add a', { env: fx.env, attribution: true, verify: true, timeoutMs: 1000 });

    const error = await commit.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitOperationError);
    expect((error as GitOperationError).kind).toBe('git_timeout');
    expect((error as Error).message).toBe('git commit did not finish within 1 s (a hook may be hanging) and was stopped.');
    const hookPid = readPid(join(dir, 'hook.pid'));
    expect(hookPid, 'the hook wrote its pid').not.toBeNull();
    // SIGKILL went to the whole group; the call returns 200 ms after git ends, and on a busy machine the hook
    // may still be on its way out then: it must be gone soon after, not necessarily at that instant.
    expect(await goneWithin(hookPid!, 5_000)).toBe(true);
  }, 15_000);
});

/** Whether `pid` has ended (or is a zombie) within `ms`, looked at every 20 ms. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 20) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !isRunning(pid);
}
