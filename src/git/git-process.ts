// Runs one git process: its real exit status, its stderr reduced to one readable line, and a timeout
// that ends git and everything it started (hooks included), so no git call can hang a request.
import { runProcessGroup } from '../platform/process-group.js';

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

/** Runs git in a process group of its own (platform/process-group.ts), so a timeout also ends the hooks git runs. */
export async function spawnGit(args: readonly string[], options: GitProcessOptions): Promise<GitProcessResult> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const result = await runProcessGroup('git', args, {
    cwd: options.cwd,
    env: options.extraEnv ? { ...(options.env ?? process.env), ...options.extraEnv } : options.env,
    timeoutMs: options.timeoutMs,
    stderr: true,
    onStdout: (chunk) => out.push(chunk),
    onStderr: (chunk) => err.push(chunk),
    stopGraceMs: 0,
    killGroupOnExit: false,
    pipeGraceMs: PIPE_GRACE_MS,
  });
  return { exitCode: result.exitCode, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), timedOut: result.timedOut };
}

/** The line of git's stderr that says what went wrong (`fatal: ...`), without its hints. */
export function gitErrorLine(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const reason = lines.find((line) => /^(fatal|error):/i.test(line)) ?? lines.find((line) => !/^hint:/i.test(line));
  return (reason ?? '').replace(/^(fatal|error):\s*/i, '');
}
