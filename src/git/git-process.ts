// Runs one git process: its real exit status, its stderr reduced to one readable line, and a timeout
// that ends git and everything it started (hooks included), so no git call can hang a request.
import { spawn } from 'node:child_process';

export interface GitProcessOptions {
  readonly cwd: string;
  /** The whole environment of git; undefined inherits this process's environment. */
  readonly env: Record<string, string> | undefined;
  /** Added to the environment (inherited or given): tandem's command-scope config for git. */
  readonly extraEnv?: Record<string, string>;
  readonly timeoutMs: number;
}

export interface GitProcessResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

// After git exits, a background child (a hook's `cmd &`) may still hold the pipes: stop waiting soon.
const PIPE_GRACE_MS = 200;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function spawnGit(args: readonly string[], options: GitProcessOptions): Promise<GitProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...args], {
      cwd: options.cwd,
      env: options.extraEnv ? { ...(options.env ?? process.env), ...options.extraEnv } : options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a timeout also ends the hooks git runs.
      detached: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let exitCode: number | null = null;
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ exitCode: timedOut ? null : exitCode, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), timedOut });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
      grace = setTimeout(finish, PIPE_GRACE_MS);
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      exitCode = code;
      grace ??= setTimeout(finish, PIPE_GRACE_MS);
    });
    child.on('close', finish);
  });
}

/** The line of git's stderr that says what went wrong (`fatal: ...`), without its hints. */
export function gitErrorLine(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const reason = lines.find((line) => /^(fatal|error):/i.test(line)) ?? lines.find((line) => !/^hint:/i.test(line));
  return (reason ?? '').replace(/^(fatal|error):\s*/i, '');
}
