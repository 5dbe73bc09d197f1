// Runs the built tandem CLI once as a user would (one-shot, --json, answering yes; optionally continuing a
// saved session with --resume) and collects its output.
import { spawn } from 'node:child_process';

export interface TandemLaunch {
  /** The Node binary and the built CLI entry (package.json's `bin`). */
  readonly nodePath: string;
  readonly cliPath: string;
  /** The complete environment of the tandem process. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Options passed through unchanged: --model, --edit-format, --base-url... */
  readonly passThrough: readonly string[];
  readonly timeoutMs: number;
}

export interface TandemRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Always added: no questions, JSON events, and no commits (commit messages would cost model calls). */
const FIXED_ARGS = ['--yes-always', '--json', '--no-auto-commits', '--no-dirty-commits'];

/** One tandem invocation: the message, the chat files, and the session to continue (null: a new one). */
export interface TandemRequest {
  readonly message: string;
  readonly files: readonly string[];
  readonly resume: string | null;
}

export function tandemArgs(request: TandemRequest, passThrough: readonly string[]): string[] {
  const resume = request.resume === null ? [] : ['--resume', request.resume];
  return ['--message', request.message, ...resume, ...FIXED_ARGS, ...passThrough, '--', ...request.files];
}

export function runTandemOnce(cwd: string, request: TandemRequest, launch: TandemLaunch): Promise<TandemRun> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(launch.env)) if (value !== undefined) env[name] = value;
  return new Promise((resolve, reject) => {
    const child = spawn(launch.nodePath, [launch.cliPath, ...tandemArgs(request, launch.passThrough)], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, launch.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, stdout, stderr, timedOut });
    });
  });
}
