// A child process in a process group of its own, for the before/after mode's long children (npm
// builds, whole bench sections): stopping it stops everything it started (npm's tsc, a section's tandem
// and git processes), and the promise settles only once they are gone, so cleanup comes after them.
import { StringDecoder } from 'node:string_decoder';
import { runProcessGroup } from '../src/platform/process-group.js';

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

/**
 * Runs `command` to its end through tandem's own group runner (reading until every process of the
 * group let go of the output); rejects with the signal's reason when aborted, once the group is gone.
 */
export async function runInGroup(command: string, args: readonly string[], options: GroupOptions): Promise<GroupResult> {
  if (options.signal?.aborted) throw options.signal.reason;
  let stdout = '';
  let stderrTail = '';
  let pending = '';
  // A character split between two chunks is decoded whole.
  const out = new StringDecoder('utf8');
  const err = new StringDecoder('utf8');
  const result = await runProcessGroup(command, args, {
    cwd: options.cwd,
    env: options.env,
    timeoutMs: 0,
    signal: options.signal,
    stderr: true,
    onStdout: options.stdout ? (chunk) => void (stdout += out.write(chunk)) : undefined,
    onStderr: (chunk) => {
      const text = err.write(chunk);
      stderrTail = (stderrTail + text).slice(-4000);
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) options.onStderrLine?.(line);
    },
    stopGraceMs: GRACE_MS,
    killGroupOnExit: false,
    pipeGraceMs: Infinity,
  });
  if (pending) options.onStderrLine?.(pending);
  if (result.aborted) throw options.signal?.reason;
  return { code: result.exitCode, stdout, stderrTail };
}
