// A child process in a process group of its own, for the before/after mode's long children (npm
// builds, whole bench sections): stopping it stops everything it started (npm's tsc, a section's tandem
// and git processes), and the promise settles only once they are gone, so cleanup comes after them.
import { spawn } from 'node:child_process';

export interface GroupOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  /** Each complete line of the child's stderr, as it comes. */
  readonly onStderrLine?: (line: string) => void;
  /** Whether to keep stdout (else it is ignored). */
  readonly stdout?: boolean;
}

export interface GroupResult {
  readonly code: number | null;
  readonly stdout: string;
  /** The last 4,000 characters of stderr. */
  readonly stderrTail: string;
}

/** After SIGTERM, how long the group has before SIGKILL. */
const GRACE_MS = 5000;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/** Runs `command` to its end; rejects with the signal's reason when aborted, once the group is gone. */
export function runInGroup(command: string, args: readonly string[], options: GroupOptions): Promise<GroupResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(options.signal.reason);
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'] });
    let stdout = '';
    let stderrTail = '';
    let pending = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-4000);
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) options.onStderrLine?.(line);
    });
    let killer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      killGroup(child.pid, 'SIGTERM');
      killer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), GRACE_MS);
      killer.unref();
    };
    options.signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (error) => {
      options.signal?.removeEventListener('abort', stop);
      reject(error);
    });
    // 'close' waits for the pipes, which every process of the group holds: it comes when all are gone.
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', stop);
      clearTimeout(killer);
      if (pending) options.onStderrLine?.(pending);
      if (options.signal?.aborted) reject(options.signal.reason);
      else resolve({ code, stdout, stderrTail });
    });
  });
}
