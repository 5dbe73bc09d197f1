// One way to run shell commands (lint, test, /run, suggested commands) on the process-group runner
// (process-group.ts): repo root as cwd, stdin closed, stdout and stderr merged in order, a timeout that
// kills the whole process group, bounded output.
// With a sandbox, every command starts inside it (sandbox.ts), and none starts when it cannot be built.
import { StringDecoder } from 'node:string_decoder';
import { runProcessGroup } from './process-group.js';
import { refusedMessage, SandboxError, type Sandbox } from './sandbox.js';
import { TandemError } from './errors.js';

export interface RunOptions {
  readonly cwd: string;
  /** The complete environment of the command; nothing is inherited. */
  readonly env: Record<string, string>;
  /** Milliseconds before the process group is killed; Infinity or 0 for no limit. */
  readonly timeoutMs: number;
  /** Output kept in memory; beyond it the middle is dropped for a marker. Default 1 MiB. */
  readonly maxOutputBytes?: number;
  /** Aborting kills the process group, like a timeout. */
  readonly signal?: AbortSignal;
  /** Called with the output as it arrives (for /run and /test). */
  readonly onOutput?: (text: string) => void;
}

export interface RunResult {
  /** null when the process was ended by a signal (timeout, abort). */
  readonly exitCode: number | null;
  readonly output: string;
  readonly timedOut: boolean;
  readonly truncated: boolean;
  readonly durationMs: number;
}

export interface ProcessRunner {
  run(command: string, options: RunOptions): Promise<RunResult>;
}

export type ProcessErrorKind = 'spawn_failed';

export class ProcessError extends TandemError {
  constructor(
    readonly kind: ProcessErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ProcessError';
  }
}

const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Keeps the first and the last half of a byte budget, counting what falls in between. */
export class OutputCollector {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  add(chunk: Buffer): void {
    const headRoom = Math.ceil(this.maxBytes / 2) - this.headBytes;
    if (headRoom > 0) {
      const taken = chunk.subarray(0, headRoom);
      this.head.push(taken);
      this.headBytes += taken.length;
      chunk = chunk.subarray(taken.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    this.trimTail(Math.floor(this.maxBytes / 2));
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    if (!this.truncated) return head + tail;
    return `${head}\n[... ${this.dropped} bytes of output omitted ...]\n${tail}`;
  }

  private trimTail(limit: number): void {
    while (this.tailBytes > limit) {
      const first = this.tail[0];
      if (first === undefined) return;
      const excess = this.tailBytes - limit;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.dropped += first.length;
        continue;
      }
      this.tail[0] = first.subarray(excess);
      this.tailBytes -= excess;
      this.dropped += excess;
    }
  }
}

// A stopped command gets this long to exit on SIGTERM before the group is killed outright.
const KILL_GRACE_MS = 1000;
// After the shell is gone, output still arriving this long after means a child that left the group
// (setsid, a daemon) holds the pipe: stop reading rather than wait for it.
const PIPE_GRACE_MS = 300;
const ESCAPED_NOTE = '\n[tandem stopped reading: a process that left the command\'s process group still holds its output open and may still be running]\n';

export interface ProcessRunnerOptions {
  /** Run every command inside this sandbox (--sandbox); null or absent: as tandem itself runs. */
  readonly sandbox?: Sandbox | null;
}

/** What is started: the shell (or bubblewrap around it) and the whole environment. */
interface Launch {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
}

// How long the one trial run of the sandbox may take before it counts as refused.
const SANDBOX_PROBE_MS = 30_000;

export function createProcessRunner(runnerOptions: ProcessRunnerOptions = {}): ProcessRunner {
  let probe: Promise<void> | undefined;
  const sandbox = runnerOptions.sandbox ?? null;
  return {
    async run(command, options) {
      // `exec 2>&1` on its own line merges stderr into the same pipe for the shell and every child, so the
      // order is kept; the newline keeps a trailing `# comment` in the command from swallowing anything.
      const argv = ['/bin/sh', '-c', `exec 2>&1\n${command}`];
      if (sandbox === null) return runCommand({ file: argv[0]!, args: argv.slice(1), env: options.env }, options);
      // The kernel may refuse the namespaces: one trial run says so before any command is started.
      await (probe ??= probeSandbox(sandbox, options));
      return runCommand(sandbox.launch(argv, options.env), options);
    },
  };
}

async function probeSandbox(sandbox: Sandbox, options: RunOptions): Promise<void> {
  const launch = sandbox.launch(['/bin/sh', '-c', 'exit 0'], options.env);
  // bubblewrap says why on its own stderr, which a command's run does not read: this run keeps it.
  const said: Buffer[] = [];
  let exitCode: number | null;
  try {
    ({ exitCode } = await runProcessGroup(launch.file, launch.args, {
      cwd: options.cwd,
      env: launch.env,
      timeoutMs: SANDBOX_PROBE_MS,
      stderr: true,
      onStdout: (chunk) => said.push(chunk),
      onStderr: (chunk) => said.push(chunk),
      stopGraceMs: 0,
      killGroupOnExit: true,
      pipeGraceMs: PIPE_GRACE_MS,
    }));
  } catch (error) {
    throw new SandboxError(refusedMessage((error as Error).message));
  }
  if (exitCode !== 0) throw new SandboxError(refusedMessage(Buffer.concat(said).toString('utf8')));
}

async function runCommand(launch: Launch, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const collector = new OutputCollector(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  const decoder = new StringDecoder('utf8');
  let result;
  try {
    result = await runProcessGroup(launch.file, launch.args, {
      cwd: options.cwd,
      env: launch.env,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      stderr: false,
      onStdout: (chunk) => {
        collector.add(chunk);
        if (options.onOutput) options.onOutput(decoder.write(chunk));
      },
      stopGraceMs: KILL_GRACE_MS,
      // Background children of the group end with the shell; one that left the group may keep the pipe.
      killGroupOnExit: true,
      pipeGraceMs: PIPE_GRACE_MS,
    });
  } catch (error) {
    throw new ProcessError('spawn_failed', `Could not start the shell in ${options.cwd}: ${(error as Error).message}`);
  }
  return {
    exitCode: result.exitCode,
    output: collector.text() + (result.pipesHeld ? ESCAPED_NOTE : ''),
    timedOut: result.timedOut,
    truncated: collector.truncated,
    durationMs: Math.round(performance.now() - started),
  };
}
