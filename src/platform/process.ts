// One way to run shell commands (lint, test, /run, suggested commands) on execa: repo root as cwd, stdin closed,
// stdout and stderr merged in order, a timeout that kills the whole process group, bounded output.
// With a sandbox, every command starts inside it (sandbox.ts), and none starts when it cannot be built.
import { StringDecoder } from 'node:string_decoder';
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

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
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
  // execa costs a tenth of a second to import: only runs that start a command pay for it.
  let execaModule: Promise<typeof import('execa')> | undefined;
  let probe: Promise<void> | undefined;
  const sandbox = runnerOptions.sandbox ?? null;
  return {
    async run(command, options) {
      const { execa } = await (execaModule ??= import('execa'));
      // `exec 2>&1` on its own line merges stderr into the same pipe for the shell and every child, so the
      // order is kept; the newline keeps a trailing `# comment` in the command from swallowing anything.
      const argv = ['/bin/sh', '-c', `exec 2>&1\n${command}`];
      if (sandbox === null) return runCommand(execa, { file: argv[0]!, args: argv.slice(1), env: options.env }, options);
      // The kernel may refuse the namespaces: one trial run says so before any command is started.
      await (probe ??= probeSandbox(execa, sandbox, options));
      return runCommand(execa, sandbox.launch(argv, options.env), options);
    },
  };
}

async function probeSandbox(execa: typeof import('execa').execa, sandbox: Sandbox, options: RunOptions): Promise<void> {
  const launch = sandbox.launch(['/bin/sh', '-c', 'exit 0'], options.env);
  // bubblewrap says why on its own stderr, which a command's run does not read: this run keeps it.
  const result = await execa(launch.file, [...launch.args], {
    cwd: options.cwd,
    env: launch.env,
    extendEnv: false,
    stdin: 'ignore',
    all: true,
    reject: false,
    timeout: SANDBOX_PROBE_MS,
  });
  if (result.exitCode !== 0) throw new SandboxError(refusedMessage(String(result.all ?? result.message)));
}

function runCommand(execa: typeof import('execa').execa, launch: Launch, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const collector = new OutputCollector(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  return new Promise((resolve, reject) => {
    // execa's own timeout and kill reach the shell only; the process group is handled here (STACK.md).
    const child = execa(launch.file, [...launch.args], {
      cwd: options.cwd,
      env: launch.env,
      extendEnv: false,
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'ignore',
      buffer: false,
      reject: false,
      cleanup: false,
      // A group of its own, so a timeout or Ctrl-C can end the shell's children too.
      detached: true,
    });
    // Its promise settles after the pipes close; this runner resolves on its own terms (see finish).
    void child.then(
      (result) => {
        if (result.failed && result.exitCode === undefined && !result.isTerminated && !done) fail(String(result.originalMessage || result.message));
      },
      () => undefined,
    );
    let timedOut = false;
    let aborted = false;
    let escaped = false;
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
    const stop = (): void => {
      killGroup(child.pid, 'SIGTERM');
      later(KILL_GRACE_MS, () => killGroup(child.pid, 'SIGKILL'));
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
      resolve({
        exitCode: timedOut || aborted ? null : exitCode,
        output: collector.text() + (escaped ? ESCAPED_NOTE : ''),
        timedOut,
        truncated: collector.truncated,
        durationMs: Math.round(performance.now() - started),
      });
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
    const decoder = new StringDecoder('utf8');
    child.stdout?.on('data', (chunk: Buffer) => {
      collector.add(chunk);
      if (options.onOutput) options.onOutput(decoder.write(chunk));
    });
    child.on('exit', (code) => {
      exitCode = code;
      // Background children of the group end with the shell; one that left the group may keep the pipe.
      killGroup(child.pid, 'SIGKILL');
      later(PIPE_GRACE_MS, () => {
        escaped = true;
        finish();
      });
    });
    const fail = (message: string): void => {
      if (done) return;
      cleanup();
      reject(new ProcessError('spawn_failed', `Could not start the shell in ${options.cwd}: ${message}`));
    };
    child.on('close', finish);
  });
}
