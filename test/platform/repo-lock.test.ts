import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRepoLock } from '../../src/platform/repo-lock.js';
import { FakeClock } from '../support/fake-platform.js';
import { tempDir } from '../support/temp-repo.js';

describe('the repository lock', () => {
  it('gives up when the clock says the timeout has passed, naming the holder, and is free once released', async () => {
    const root = tempDir('tandem-lock-');
    const clock = new FakeClock('2026-05-06T07:08:09.000Z');
    // This process is alive on this host, so its lock is no stale one to break.
    const holder = createRepoLock(root, { timeoutMs: 60_000, pid: process.pid, clock, pollMs: 1 });
    const release = await holder.acquire(() => {});
    expect(JSON.parse(readFileSync(join(root, '.tandem', 'write.lock'), 'utf8'))).toMatchObject({ pid: process.pid, since: '2026-05-06T07:08:09.000Z' });

    const waiter = createRepoLock(root, { timeoutMs: 60_000, pid: process.pid, clock, pollMs: 1 });
    const waits: Array<number | undefined> = [];
    const attempt = waiter.acquire((who) => {
      waits.push(who?.pid);
      clock.advance(60_000);
    });
    await expect(attempt).rejects.toMatchObject({ kind: 'lock_timeout', message: expect.stringContaining(`tandem process ${process.pid} kept this repository locked for 60 s`) });
    expect(waits).toEqual([process.pid]);

    await release();
    const again = await waiter.acquire(() => {
      throw new Error('the lock was released: nobody to wait for');
    });
    await again();
  });
});

describe('a planted lock', () => {
  const plant = (root: string, content: string): string => {
    mkdirSync(join(root, '.tandem'), { recursive: true });
    const file = join(root, '.tandem', 'write.lock');
    writeFileSync(file, content);
    return file;
  };

  it('from another host or a live process that is not tandem is taken over once old; the timeout says how', async () => {
    const root = tempDir('tandem-lock-');
    const file = plant(root, JSON.stringify({ pid: 1, host: 'elsewhere.example', since: '2099-01-01T00:00:00.000Z' }));
    const warnings: string[] = [];
    // Fresh: waited for, and the message says how to take it over.
    const clock = new FakeClock(new Date(statSync(file).mtimeMs).toISOString());
    const fresh = createRepoLock(root, { timeoutMs: 1000, pid: process.pid, clock, pollMs: 1, warn: (m) => warnings.push(m) });
    await expect(fresh.acquire(() => clock.advance(1000))).rejects.toMatchObject({ message: expect.stringMatching(/on elsewhere\.example.*delete \.tandem\/write\.lock to take the lock over/) });
    // Ten minutes after the file was made it is stale, whatever `since` it claims.
    clock.advance(10 * 60_000);
    const release = await fresh.acquire(() => {
      throw new Error('a stale lock is not waited for');
    });
    expect(warnings).toEqual(['Took over .tandem/write.lock: it names another host (elsewhere.example) and it is 10 min old.']);
    await release();
    // pid 1 is alive here and is no tandem process.
    plant(root, JSON.stringify({ pid: 1, host: hostname(), since: 'x' }));
    const local = createRepoLock(root, { timeoutMs: 0, pid: process.pid, clock: new FakeClock(new Date(Date.now() + 11 * 60_000).toISOString()), pollMs: 1, warn: (m) => warnings.push(m), isTandemProcess: () => false });
    await (await local.acquire(() => {}))();
    expect(warnings.at(-1)).toMatch(/process 1 is not tandem/);
  });

  it('that git tracks, or that is a FIFO, is broken at once without blocking', async () => {
    const root = tempDir('tandem-lock-');
    plant(root, JSON.stringify({ pid: process.pid, host: hostname(), since: 'x' }));
    const warnings: string[] = [];
    const tracked = createRepoLock(root, { timeoutMs: 60_000, pid: process.pid, pollMs: 1, tracked: true, warn: (m) => warnings.push(m) });
    await (await tracked.acquire(() => {}))();
    const fifo = join(root, '.tandem', 'write.lock');
    execFileSync('mkfifo', [fifo]);
    const planted = createRepoLock(root, { timeoutMs: 60_000, pid: process.pid, pollMs: 1, warn: (m) => warnings.push(m) });
    await (await planted.acquire(() => {}))();
    expect(warnings).toEqual(['Took over .tandem/write.lock: git tracks .tandem/write.lock (it came with the repository).', 'Took over .tandem/write.lock: it is not a regular file.']);
  });
});
