// One writer per repository: a lock file in `.tandem/` held from planning a reply until its commit, so
// two tandem processes never interleave their plan, write and commit on the same files.
// A lock can also be planted (committed, or naming another host): one that is not a plain file, or that
// git tracks, is broken at once; one from another host or from a live process that is not tandem is
// broken once its file is older than `staleAfterMs`.
import { randomBytes } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { systemClock, type Clock } from './clock.js';
import { readStateFile, STATE_CAPS } from './state-files.js';
import { TandemError } from './errors.js';

class LockTimeoutError extends TandemError {
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
  /** A lock from another host, or naming a live process that is not tandem, is stale once this old (default 10 minutes). */
  readonly staleAfterMs?: number;
  /** Whether git tracks `.tandem/write.lock` (it came with the repository): then it is never honoured. */
  readonly tracked?: boolean;
  /** Told when a lock is broken as planted or stale. */
  readonly warn?: (message: string) => void;
  /** Whether `pid` on this host is a tandem process; default: its command line (Linux /proc) names tandem. */
  readonly isTandemProcess?: (pid: number) => boolean;
}

const DEFAULT_STALE_AFTER_MS = 10 * 60_000;

/** A live process whose command line does not mention tandem is not the lock's writer (a reused or planted pid). */
export function processLooksLikeTandem(pid: number): boolean {
  try {
    return /tandem/i.test(readFileSync(`/proc/${pid}/cmdline`, 'latin1'));
  } catch {
    // No /proc here: assume it is, and let the age rule decide.
    return true;
  }
}

function lockFile(root: string): string {
  return path.join(root, '.tandem', 'write.lock');
}

export function createRepoLock(root: string, options: RepoLockOptions): RepoLock {
  const file = lockFile(root);
  const pollMs = options.pollMs ?? 50;
  const clock = options.clock ?? systemClock;
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const isTandem = (pid: number): boolean => pid === options.pid || (options.isTandemProcess ?? processLooksLikeTandem)(pid);
  let trackedBroken = false;
  const stale = (holder: LockHolder | null): string | null => {
    if (options.tracked && !trackedBroken) return 'git tracks .tandem/write.lock (it came with the repository)';
    const planted = plantedProblem(file);
    if (planted) return planted;
    if (holder === null) return clock.now().getTime() - lockWrittenAt(file) >= staleAfterMs ? 'it holds no lock tandem wrote' : null;
    if (holder.host === hostname() && !processAlive(holder.pid)) return 'its process is gone';
    const foreign = holder.host !== hostname() ? `it names another host (${holder.host})` : !isTandem(holder.pid) ? `process ${holder.pid} is not tandem` : null;
    if (foreign === null) return null;
    const age = clock.now().getTime() - lockWrittenAt(file);
    return age >= staleAfterMs ? `${foreign} and it is ${Math.round(age / 60_000)} min old` : null;
  };
  return {
    async acquire(onWait) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      const me: LockHolder = { pid: options.pid, host: hostname(), since: clock.now().toISOString() };
      const deadline = clock.now().getTime() + options.timeoutMs;
      let told = false;
      for (;;) {
        if (await tryCreate(file, me)) return () => release(file, me);
        const holder = await readHolder(file);
        const why = stale(holder);
        if (why !== null) {
          if (why !== 'its process is gone') options.warn?.(`Took over .tandem/write.lock: ${why}.`);
          if (options.tracked) trackedBroken = true;
          await breakStale(file, holder);
          continue;
        }
        if (!told) {
          onWait(holder);
          told = true;
        }
        if (clock.now().getTime() >= deadline) {
          const who = holder ? `tandem process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}` : 'tandem process';
          throw new LockTimeoutError(
            `Another ${who} kept this repository locked for ${Math.round(options.timeoutMs / 1000)} s (${path.relative(root, file)}); nothing was written. ` +
              `Try again when it has finished; if no tandem is running there, delete ${path.relative(root, file)} to take the lock over.`,
          );
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

/** A lock that is not a plain file (a link, a FIFO, a folder, something huge) was never written by tandem. */
function plantedProblem(file: string): string | null {
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return 'it is not a regular file';
    return st.size > STATE_CAPS.lock ? 'it is far larger than a lock' : null;
  } catch {
    return null;
  }
}

/** The lock file's modification time (a clone or copy sets it to when it was made: the holder cannot choose it). */
function lockWrittenAt(file: string): number {
  try {
    return lstatSync(file).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

async function readHolder(file: string): Promise<LockHolder | null> {
  const read = readStateFile(path.dirname(path.dirname(file)), file, STATE_CAPS.lock);
  if (!read.ok) return null;
  try {
    const value = JSON.parse(read.data.toString('utf8')) as Partial<LockHolder>;
    return typeof value.pid === 'number' && typeof value.host === 'string' ? { pid: value.pid, host: value.host, since: String(value.since) } : null;
  } catch {
    // Being written, or just removed: look again at the next poll.
    return null;
  }
}

/** Whether `pid` runs on this machine (a holder whose process is gone left the lock behind: a crash, a SIGKILL). */
function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Moves the stale lock aside atomically: of several processes breaking it at once, one wins the rename. */
async function breakStale(file: string, seen: LockHolder | null): Promise<void> {
  const aside = `${file}.stale-${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(file, aside);
  } catch {
    return;
  }
  const moved = await readHolder(aside);
  if (moved && (!seen || moved.pid !== seen.pid || moved.since !== seen.since)) {
    // We moved a fresh lock someone took in between: put it back if the place is still free.
    await fs.link(aside, file).catch(() => undefined);
  }
  await fs.rm(aside, { force: true, recursive: true });
}

async function release(file: string, me: LockHolder): Promise<void> {
  const holder = await readHolder(file);
  if (holder && holder.pid === me.pid && holder.since === me.since) await fs.rm(file, { force: true });
}
