// One way to run shell commands (lint, test, /run, suggested commands): repo root as cwd, stdin closed,
// stdout and stderr merged in order, a timeout that kills the whole process group, bounded output.
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

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
  /** Called with the output as it arrives (whole characters), for a screen that shows it live. */
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

export class ProcessError extends Error {
  constructor(
    readonly kind: ProcessErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ProcessError';
  }
}

const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;

/** A copy of `env` without variables whose names look like they hold secrets. */
export function scrubSecrets(env: Record<string, string | undefined>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || SECRET_NAME.test(name)) continue;
    clean[name] = value;
  }
  return clean;
}

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

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

export function createProcessRunner(): ProcessRunner {
  return { run: runCommand };
}

function runCommand(command: string, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const collector = new OutputCollector(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  // `exec 2>&1` on its own line merges stderr into the same pipe for the shell and every child, so the
  // order is kept; the newline keeps a trailing `# comment` in the command from swallowing anything.
  const script = `exec 2>&1\n${command}`;
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', script], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'ignore'],
      // A group of its own, so a timeout can end the shell's children too.
      detached: true,
    });
    let timedOut = false;
    let aborted = false;
    // setTimeout treats Infinity as 1 ms: only a finite, positive timeout arms the timer.
    const timer = Number.isFinite(options.timeoutMs) && options.timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          killGroup(child.pid);
        }, options.timeoutMs)
      : undefined;
    const onAbort = (): void => {
      aborted = true;
      killGroup(child.pid);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    const decoder = new StringDecoder('utf8');
    child.stdout.on('data', (chunk: Buffer) => {
      collector.add(chunk);
      if (options.onOutput) options.onOutput(decoder.write(chunk));
    });
    // The shell may exit while a background child still holds the pipe: end the group so 'close' comes.
    child.on('exit', () => killGroup(child.pid));
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(new ProcessError('spawn_failed', `Could not start the shell in ${options.cwd}: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode: timedOut || aborted ? null : code,
        output: collector.text(),
        timedOut,
        truncated: collector.truncated,
        durationMs: Math.round(performance.now() - started),
      });
    });
  });
}
