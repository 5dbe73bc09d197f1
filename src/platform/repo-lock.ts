// One writer per repository: a lock file in `.tandem/` held from planning a reply until its commit, so
// two tandem processes never interleave their plan, write and commit on the same files.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { systemClock, type Clock } from './clock.js';

class LockTimeoutError extends Error {
  readonly kind = 'lock_timeout';
}

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

export interface RepoLock {
  /** Waits for the lock (calling onWait once if someone holds it); resolves with its release. */
  acquire(onWait: (holder: LockHolder | null) => void): Promise<() => Promise<void>>;
}

export interface RepoLockOptions {
  readonly timeoutMs: number;
  readonly pollMs?: number;
  /** This process's id, written into the lock so others can tell a crashed holder. */
  readonly pid: number;
  /** Stamps the lock and measures the wait; default: the system clock. */
  readonly clock?: Clock;
}

function lockFile(root: string): string {
  return path.join(root, '.tandem', 'write.lock');
}

export function createRepoLock(root: string, options: RepoLockOptions): RepoLock {
  const file = lockFile(root);
  const pollMs = options.pollMs ?? 50;
  const clock = options.clock ?? systemClock;
  return {
    async acquire(onWait) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      const me: LockHolder = { pid: options.pid, host: hostname(), since: clock.now().toISOString() };
      const deadline = clock.now().getTime() + options.timeoutMs;
      let told = false;
      for (;;) {
        if (await tryCreate(file, me)) return () => release(file, me);
        const holder = await readHolder(file);
        if (holder && isStale(holder)) {
          await breakStale(file, holder);
          continue;
        }
        if (!told) {
          onWait(holder);
          told = true;
        }
        if (clock.now().getTime() >= deadline) {
          const who = holder ? `tandem process ${holder.pid}` : 'tandem process';
          throw new LockTimeoutError(`Another ${who} kept this repository locked for ${Math.round(options.timeoutMs / 1000)} s (${path.relative(root, file)}); nothing was written. Try again when it has finished.`);
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
  };
}

async function tryCreate(file: string, me: LockHolder): Promise<boolean> {
  try {
    await fs.writeFile(file, JSON.stringify(me), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

async function readHolder(file: string): Promise<LockHolder | null> {
  try {
    const value = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<LockHolder>;
    return typeof value.pid === 'number' && typeof value.host === 'string' ? { pid: value.pid, host: value.host, since: String(value.since) } : null;
  } catch {
    // Being written, or just removed: look again at the next poll.
    return null;
  }
}

/** A holder on this machine whose process is gone left the lock behind (a crash, a SIGKILL). */
function isStale(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Moves the stale lock aside atomically: of several processes breaking it at once, one wins the rename. */
async function breakStale(file: string, seen: LockHolder): Promise<void> {
  const aside = `${file}.stale-${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(file, aside);
  } catch {
    return;
  }
  const moved = await readHolder(aside);
  if (moved && moved.pid !== seen.pid) {
    // We moved a fresh lock someone took in between: put it back if the place is still free.
    await fs.link(aside, file).catch(() => undefined);
  }
  await fs.rm(aside, { force: true });
}

async function release(file: string, me: LockHolder): Promise<void> {
  const holder = await readHolder(file);
  if (holder && holder.pid === me.pid && holder.since === me.since) await fs.rm(file, { force: true });
}
