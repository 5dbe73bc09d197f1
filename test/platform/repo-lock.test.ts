import { readFileSync } from 'node:fs';
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
