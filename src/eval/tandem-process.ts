// Runs the built tandem CLI once as a user would (one-shot, --json, answering yes; optionally continuing a
// saved session with --resume) and collects its output.
import { StringDecoder } from 'node:string_decoder';
import { runProcessGroup } from '../platform/process-group.js';

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

export async function runTandemOnce(cwd: string, request: TandemRequest, launch: TandemLaunch): Promise<TandemRun> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(launch.env)) if (value !== undefined) env[name] = value;
  const stdout = new StringDecoder('utf8');
  const stderr = new StringDecoder('utf8');
  let out = '';
  let err = '';
  const result = await runProcessGroup(launch.nodePath, [launch.cliPath, ...tandemArgs(request, launch.passThrough)], {
    cwd,
    env,
    timeoutMs: launch.timeoutMs,
    stderr: true,
    onStdout: (chunk) => (out += stdout.write(chunk)),
    onStderr: (chunk) => (err += stderr.write(chunk)),
    stopGraceMs: 0,
    killGroupOnExit: false,
    // Every line tandem printed is read, as long as it takes.
    pipeGraceMs: Infinity,
    // In the eval's own group: a Ctrl-C at the terminal stops the tandem being measured too.
    ownGroup: false,
  });
  return { exitCode: result.exitCode, stdout: out + stdout.end(), stderr: err + stderr.end(), timedOut: result.timedOut };
}
