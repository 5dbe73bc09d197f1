// The pid a test's shell command writes to a file (`echo $! > x.pid`). The shell creates the file before
// it writes the number, so a reader waits for a whole line; and a pid is never 0 or less, because
// process.kill(0, ...) signals the caller's own process group: the test runner and whatever started it.
import { existsSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';

/** The positive pid in `file`, or null while the file is missing, half-written or holds no pid. */
export function readPid(file: string): number | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  if (!text.endsWith('\n')) return null;
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** Resolves with the pid once `dir/name` holds a whole line with one, watching the folder (no clock). */
export function pidWritten(dir: string, name: string): Promise<number> {
  return new Promise((resolve) => {
    const check = (): void => {
      const pid = readPid(join(dir, name));
      if (pid === null) return;
      watcher.close();
      resolve(pid);
    };
    const watcher = watch(dir, check);
    check();
  });
}

/** Sends `signal` to one process; a pid that is not positive is refused, never sent. */
export function signalProcess(pid: number, signal: NodeJS.Signals): void {
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`refusing to signal pid ${pid}: 0 or less means a whole process group`);
  process.kill(pid, signal);
}

/** SIGKILL for a process a test may have left running, if it still is. */
export function killLeftover(pid: number): void {
  try {
    signalProcess(pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Whether `pid` names a running process: it exists and is not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`refusing to probe pid ${pid}: 0 or less means a whole process group`);
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== '' && state !== 'Z' && state !== 'X';
}
