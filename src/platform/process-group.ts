// The one way tandem starts a program (git, shell commands, the sandbox's trial run, the eval's tandem):
// in a process group of its own, stdin closed, its output streamed to the caller, and a timeout or an
// abort that ends the whole group (hooks, a test runner's children), not only the program itself.
// Built on node's spawn, not execa: execa's timeout and kill reach the direct child only, so the group
// kill, the grace periods and the stop on a pipe held by an escaped child would be ours anyway; and git
// runs in every request, where importing execa would add to every run's start (README, "Development").
import { spawn } from 'node:child_process';

export interface GroupRunOptions {
  readonly cwd: string;
  /** The whole environment of the program; undefined inherits this process's environment. */
  readonly env: Readonly<Record<string, string | undefined>> | undefined;
  /** Milliseconds before the group is stopped; Infinity or 0 for no limit. */
  readonly timeoutMs: number;
  /** Aborting stops the group, like a timeout. */
  readonly signal?: AbortSignal;
  /** Read stderr (handed to onStderr); otherwise it goes nowhere. */
  readonly stderr: boolean;
  readonly onStdout?: (chunk: Buffer) => void;
  readonly onStderr?: (chunk: Buffer) => void;
  /**
   * How a stop ends the group: 0 kills it outright (SIGKILL); more sends SIGTERM first and SIGKILL
   * this many milliseconds later, so a test runner can clean up.
   */
  readonly stopGraceMs: number;
  /** Kill what is left of the group once the program exits (its background children). */
  readonly killGroupOnExit: boolean;
  /**
   * After the program exits (or is killed outright), how long to keep reading: a child that left the
   * group (setsid, a daemon, a hook's `cmd &`) may hold the pipes open for as long as it runs. Infinity
   * reads to the end of the output.
   */
  readonly pipeGraceMs: number;
  /**
   * false: the program stays in tandem's own group, so a Ctrl-C at the terminal reaches it too, and a
   * stop signals the program alone (the eval's tandem runs). Default true.
   */
  readonly ownGroup?: boolean;
}

export interface GroupRunResult {
  /** The program's exit code; null when it was stopped (timeout, abort) or ended by a signal. */
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Reading stopped while something outside the group still held the output open. */
  readonly pipesHeld: boolean;
}

/** Signals the process group led by `pid` (or the process alone), if it is still there. */
function signal(pid: number | undefined, name: NodeJS.Signals, group: boolean): void {
  if (pid === undefined) return;
  try {
    process.kill(group ? -pid : pid, name);
  } catch {
    // Already gone.
  }
}

/** Runs `file args...` to its end (or its stop); rejects only when it cannot be started (ENOENT, a missing cwd). */
export function runProcessGroup(file: string, args: readonly string[], options: GroupRunOptions): Promise<GroupRunResult> {
  const group = options.ownGroup ?? true;
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', options.stderr ? 'pipe' : 'ignore'],
      // A group of its own, so a timeout or Ctrl-C can end the program's children too.
      detached: group,
    });
    const kill = (name: NodeJS.Signals): void => signal(child.pid, name, group);
    let timedOut = false;
    let aborted = false;
    let pipesHeld = false;
    let done = false;
    let exitCode: number | null = null;
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void): void => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, ms);
      timers.add(timer);
    };
    const cleanup = (): void => {
      done = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      options.signal?.removeEventListener('abort', onAbort);
    };
    const finish = (): void => {
      if (done) return;
      cleanup();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ exitCode: timedOut || aborted ? null : exitCode, timedOut, aborted, pipesHeld });
    };
    const stopReadingLater = (): void => {
      if (!Number.isFinite(options.pipeGraceMs)) return;
      later(options.pipeGraceMs, () => {
        pipesHeld = true;
        finish();
      });
    };
    const stop = (): void => {
      if (options.stopGraceMs > 0) {
        kill('SIGTERM');
        later(options.stopGraceMs, () => kill('SIGKILL'));
        return;
      }
      kill('SIGKILL');
      stopReadingLater();
    };
    // setTimeout treats Infinity as 1 ms: only a finite, positive timeout arms the timer.
    if (Number.isFinite(options.timeoutMs) && options.timeoutMs > 0) {
      later(options.timeoutMs, () => {
        timedOut = true;
        stop();
      });
    }
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    if (options.onStdout) child.stdout?.on('data', options.onStdout);
    else child.stdout?.resume();
    if (options.onStderr) child.stderr?.on('data', options.onStderr);
    else child.stderr?.resume();
    child.on('error', (error) => {
      if (done) return;
      cleanup();
      reject(error);
    });
    child.on('exit', (code) => {
      exitCode = code;
      if (options.killGroupOnExit) kill('SIGKILL');
      stopReadingLater();
    });
    child.on('close', finish);
  });
}
