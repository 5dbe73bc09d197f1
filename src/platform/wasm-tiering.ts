// Compiles a WebAssembly module with V8's tier-up switched off, so its code stays on the baseline
// compiler (Liftoff) for good: what tree-sitter grammars need (see compileOnBaselineTier).
import v8 from 'node:v8';
import { threadId } from 'node:worker_threads';

/** Sets V8 flags (v8.setFlagsFromString); a parameter so tests can watch the calls. */
export type SetV8Flags = (flags: string) => void;

export interface BaselineTierOptions {
  readonly setFlags?: SetV8Flags;
  /** The Node options of this process (default process.execArgv). */
  readonly execArgv?: readonly string[];
}

/** While these are set, V8 compiles every function of a new module at once, on Liftoff, with no tier-up checks. */
const TIER_UP_OFF = ['--no-wasm-dynamic-tiering', '--no-wasm-tier-up', '--no-wasm-lazy-compilation'];
/** Node 20's defaults for the same flags. */
const TIER_UP_ON = ['--wasm-dynamic-tiering', '--wasm-tier-up', '--wasm-lazy-compilation'];
/** Node options that choose how wasm compiles: V8's flags are then the user's, and left alone. */
const USER_WASM_OPTION = /^--(no-)?(liftoff|turbofan|wasm-(dynamic-tiering|tier-up|lazy-compilation|tiering-budget))/;

/**
 * Runs `compile` (which compiles and instantiates one wasm module) with tier-up off, then restores
 * V8's defaults.
 *
 * Why: V8 moves a wasm function to TurboFan once ~1.8 MB of its code has "run", counting each loop
 * iteration as the whole loop body. A tree-sitter grammar's lexer is one loop around a switch of
 * 100-600 KB (JavaScript 99 KB, TypeScript 160 KB, bash 213 KB, C++ 592 KB), so it counts as hot after
 * a few characters, and TurboFan then spends 2-13 s of CPU on it in background threads (its
 * instruction selection is quadratic on such bodies; measured on Node 20.20). On two cores that
 * competes with the parse, and the process cannot exit until the compile ends: a cold map of a
 * 79-file polyglot repository took 20 s to exit. Compiled with tier-up off, the module carries no
 * tier-up checks and stays on Liftoff, which lexes fast enough, while modules compiled outside the
 * window (the tree-sitter runtime, tiktoken) tier up as usual.
 *
 * The flags are process-wide: a module another thread compiles during the window (a grammar's
 * instantiation, a few milliseconds) also stays on Liftoff, which costs speed, never correctness.
 */
export function compileOnBaselineTier<T>(compile: () => Promise<T>, options: BaselineTierOptions = {}): Promise<T> {
  return withV8Flags(TIER_UP_OFF, TIER_UP_ON, compile, options);
}

/**
 * Runs `compile` with every function of the new module compiled at once (tier-up stays on). For
 * the tree-sitter runtime: its functions then never compile lazily later, inside a grammar's
 * compileOnBaselineTier window, where they would lose their tier-up for good.
 */
export function compileEagerly<T>(compile: () => Promise<T>, options: BaselineTierOptions = {}): Promise<T> {
  return withV8Flags(['--no-wasm-lazy-compilation'], ['--wasm-lazy-compilation'], compile, options);
}

/**
 * V8's flags are process-wide, so one thread's window must not overlap another's (a thread closing
 * its window would switch tier-up back on in the middle of the other's compile): a lock shared by
 * every thread of the process, [0] = 0 when free, else the holder's thread id + 1. Process-wide state
 * because the flags are; the main thread creates it, worker threads adopt their parent's
 * (tieringLock, adoptTieringLock).
 */
let lock: Int32Array | undefined;

/** The process's lock, for a worker thread's start-up data. */
export function tieringLock(): SharedArrayBuffer {
  lock ??= new Int32Array(new SharedArrayBuffer(4));
  return lock.buffer as SharedArrayBuffer;
}

/** In a worker thread: share the lock of the thread that started it. */
export function adoptTieringLock(buffer: SharedArrayBuffer): void {
  lock = new Int32Array(buffer);
}

/**
 * For the thread that started a worker, once it has exited: a worker ended inside its window (the
 * pool ends warmed-up threads it does not need, whatever they are doing) never released the lock nor
 * restored the flags. Both are done for it here, so the next window need not wait for the timeout.
 */
export function releaseTieringLockOf(workerThreadId: number, options: Pick<BaselineTierOptions, 'setFlags'> = {}): boolean {
  if (!lock || workerThreadId < 0) return false;
  if (Atomics.load(lock, 0) !== workerThreadId + 1) return false;
  const setFlags = options.setFlags ?? v8.setFlagsFromString;
  for (const flag of TIER_UP_ON) setFlags(flag);
  if (Atomics.compareExchange(lock, 0, workerThreadId + 1, 0) !== workerThreadId + 1) return false;
  Atomics.notify(lock, 0);
  return true;
}

/** A holder that vanished without anyone releasing for it: after this long, go ahead. */
const LOCK_WAIT_MS = 2000;

type WaitAsync = (cell: Int32Array, index: number, value: number, timeoutMs: number) => { async: boolean; value: unknown };

async function acquire(cell: Int32Array): Promise<void> {
  const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
  const deadline = performance.now() + LOCK_WAIT_MS;
  for (;;) {
    const holder = Atomics.compareExchange(cell, 0, 0, threadId + 1);
    if (holder === 0) return;
    const left = deadline - performance.now();
    if (left <= 0) {
      Atomics.store(cell, 0, threadId + 1);
      return;
    }
    await waitAsync(cell, 0, holder, left).value;
  }
}

function release(cell: Int32Array): void {
  // Only our own hold: after a timeout another thread may have taken the lock over.
  if (Atomics.compareExchange(cell, 0, threadId + 1, 0) === threadId + 1) Atomics.notify(cell, 0);
}

async function withV8Flags<T>(set: readonly string[], restore: readonly string[], compile: () => Promise<T>, options: BaselineTierOptions): Promise<T> {
  const execArgv = options.execArgv ?? process.execArgv;
  if (execArgv.some((option) => USER_WASM_OPTION.test(option))) return compile();
  const setFlags = options.setFlags ?? v8.setFlagsFromString;
  const cell = new Int32Array(tieringLock());
  await acquire(cell);
  try {
    for (const flag of set) setFlags(flag);
    return await compile();
  } finally {
    for (const flag of restore) setFlags(flag);
    release(cell);
  }
}
