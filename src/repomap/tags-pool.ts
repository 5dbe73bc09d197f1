// Parses files into tags on worker threads, or in-process for small jobs (a worker's start-up,
// ~grammar loading, costs more than parsing a few dozen files).
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { pathExists } from '../platform/tag-files.js';
import { createGrammarLoader, languageForPath } from '../platform/tree-sitter.js';
import { releaseTieringLockOf, tieringLock } from '../platform/wasm-tiering.js';
import type { GrammarLoader, LanguageId } from '../platform/tree-sitter.js';
import { createTagExtractor } from './extract-tags.js';
import type { TagExtractor } from './extract-tags.js';
import { parseFile } from './parse-file.js';
import type { ParseJob, ParseOutcome } from './parse-file.js';
import type { TagsWorkerData, TagsWorkerReply, TagsWorkerRequest } from './tags-worker.js';
import { fromWire } from './wire-outcome.js';

export type ProgressCallback = (done: number, total: number) => void;
/** Takes each outcome as it arrives (in no set order): the pool then keeps none of them. */
export type OutcomeCallback = (outcome: ParseOutcome) => void;

export interface TagsPool {
  /** One outcome per job, in job order. */
  parse(jobs: readonly ParseJob[], onProgress?: ProgressCallback): Promise<ParseOutcome[]>;
  /**
   * Parses `jobs`, handing each outcome to `onOutcome` as it arrives and holding none: a cold map
   * of a big tree then never holds every file's own tags and their copy in the shared table at once.
   */
  each?(jobs: readonly ParseJob[], onOutcome: OutcomeCallback, onProgress?: ProgressCallback): Promise<void>;
  /**
   * Starts the threads for about `expectedJobs` files of `languages` now, so their start-up
   * (module load, wasm compile, grammars, queries) overlaps what the caller does before `parse`.
   * Started threads do not keep the process alive, and end if no parse takes them soon. With the
   * `paths` to parse, each thread loads only the languages the plan gives it (see planLanguages).
   * Threads already warm count: a later call with more jobs starts only the ones missing.
   */
  warmUp?(languages: readonly LanguageId[], expectedJobs: number, paths?: readonly string[]): void;
}

export interface TagsPoolOptions {
  readonly queriesDir: string;
  readonly grammarDir?: string;
  /** Worker threads to use; 0 parses everything in-process. See `defaultTagThreads`. */
  readonly threads: number;
  /** Fewer jobs than this are parsed in-process (default 1: always a worker when one is available). */
  readonly inProcessBelow?: number;
  /** The worker module; default `tags-worker.js` beside this file (the built dist/). */
  readonly workerUrl?: URL;
  /** For the worker, e.g. `['--import', 'tsx']` to run the .ts worker from sources. */
  readonly execArgv?: readonly string[];
  /** Loader for the in-process path (shared with other users of the grammars). */
  readonly loader?: GrammarLoader;
  /** Warmed-up threads no parse has taken after this long are ended (default 30 s). */
  readonly warmIdleMs?: number;
  /** Told of each thread started, with the languages it preloads (for tests). */
  readonly onThreadStart?: (languages: readonly LanguageId[]) => void;
}

const BATCH_SIZE = 16;
const NO_PLAN: LanguagePlan = { shared: [], own: [] };
/**
 * A parser thread's young generation, MB. V8's default lets each thread's short-lived garbage (a
 * batch's tags) grow to some 50 MB before a scavenge; with 8 the peak of a cold map of the 27.6 MB
 * tree went from ~245 MB to ~195 MB, at no CPU cost we could measure.
 */
const WORKER_YOUNG_GENERATION_MB = 8;

/** Two threads is where parsing stops getting faster on the 2-core machines we measured. */
export function defaultTagThreads(availableParallelism: number): number {
  return Math.max(0, Math.min(2, availableParallelism));
}

/** A started worker thread; `dead` once it exited or failed, even before any batch was sent. */
interface PoolWorker {
  readonly worker: Worker;
  dead: boolean;
}

/** The languages a worker should preload for these (repository-relative) paths, sorted. */
export function languagesOf(paths: readonly string[]): LanguageId[] {
  const languages = new Set<LanguageId>();
  for (const relPath of paths) {
    const lang = languageForPath(relPath);
    if (lang) languages.add(lang);
  }
  return [...languages].sort();
}

/**
 * Which languages each of `threads` threads loads. Loading a grammar and compiling its query costs
 * far more than parsing a few files (0.3-0.8 s for C++ or C#), so a language with less than a
 * thread's share of the files is loaded by one thread only, the one with the fewest files so far;
 * languages with at least a share are `shared`: every thread loads them and they split the files.
 */
export interface LanguagePlan {
  readonly shared: readonly LanguageId[];
  /** Per thread, the languages only that thread loads. */
  readonly own: readonly (readonly LanguageId[])[];
}

export function planLanguages(paths: readonly string[], threads: number): LanguagePlan {
  const counts = new Map<LanguageId, number>();
  for (const relPath of paths) {
    const lang = languageForPath(relPath);
    if (lang) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  const byCount = [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  const shared = byCount.filter(([, count]) => threads <= 1 || count * threads >= paths.length).map(([lang]) => lang).sort();
  const own: LanguageId[][] = Array.from({ length: Math.max(1, threads) }, () => []);
  const load = own.map(() => 0);
  for (const [lang, count] of byCount) {
    if (shared.includes(lang)) continue;
    const least = load.indexOf(Math.min(...load));
    own[least]?.push(lang);
    load[least] = (load[least] ?? 0) + count;
  }
  return { shared, own: own.map((list) => list.sort()) };
}

export function createTagsPool(options: TagsPoolOptions): TagsPool {
  // Even one file goes to a worker: parsing on the main thread makes V8 optimise the grammar's wasm
  // there afterwards, which blocked the main thread for ~0.45 s after a one-file parse (measured),
  // while a worker answers in ~0.2 s and leaves the main thread free.
  const inProcessBelow = options.inProcessBelow ?? 1;
  const workerUrl = options.workerUrl ?? new URL('./tags-worker.js', import.meta.url);
  let extractor: TagExtractor | undefined;
  let warm: PoolWorker[] = [];

  const workersAvailable = (): boolean => options.threads > 0 && pathExists(fileURLToPath(workerUrl));
  const boot = (languages: readonly LanguageId[]): PoolWorker => {
    options.onThreadStart?.(languages);
    const workerData: TagsWorkerData = { queriesDir: options.queriesDir, grammarDir: options.grammarDir, preload: languages, tieringLock: tieringLock() };
    const worker = new Worker(workerUrl, {
      workerData, execArgv: options.execArgv ? [...options.execArgv] : undefined, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    const handle: PoolWorker = { worker, dead: false };
    const die = (): void => {
      handle.dead = true;
    };
    // Its thread id is gone once it exits; a thread ended while loading a grammar leaves the lock held.
    const id = worker.threadId;
    worker.on('error', die);
    worker.on('exit', () => {
      die();
      releaseTieringLockOf(id);
    });
    return handle;
  };
  const preloadOf = (plan: LanguagePlan, index: number): LanguageId[] => [...plan.shared, ...(plan.own[index] ?? [])].sort();
  /** The warmed-up threads (at most `count`, the rest ended), topped up with new ones. */
  const takeWorkers = (count: number, plan: LanguagePlan): PoolWorker[] => {
    const taken = warm.splice(0, count);
    for (const extra of warm) void extra.worker.terminate();
    warm = [];
    while (taken.length < count) taken.push(boot(preloadOf(plan, taken.length)));
    return taken;
  };

  // A second call with more jobs tops the warm threads up (a first guess may have started one).
  const warmUp = (languages: readonly LanguageId[], expectedJobs: number, paths?: readonly string[]): void => {
    if (expectedJobs <= 0 || !workersAvailable()) return;
    const count = Math.min(options.threads, Math.ceil(expectedJobs / BATCH_SIZE));
    if (warm.length >= count) return;
    const plan = paths ? planLanguages(paths, count) : { shared: languages, own: [] };
    const started = Array.from({ length: count - warm.length }, (_, i) => boot(preloadOf(plan, warm.length + i)));
    for (const { worker } of started) worker.unref();
    const now = [...warm, ...started];
    warm = now;
    const timer = setTimeout(() => {
      if (warm !== now) return;
      takeWorkers(0, NO_PLAN);
    }, options.warmIdleMs ?? 30_000);
    timer.unref();
  };

  const parseInProcess = async (jobs: readonly ParseJob[], onOutcome: OutcomeCallback, progress: () => void): Promise<void> => {
    extractor ??= createTagExtractor(
      options.loader ?? createGrammarLoader(options.grammarDir ? { grammarDir: options.grammarDir } : {}),
      options.queriesDir);
    for (const job of jobs) {
      onOutcome(await parseFile(extractor, job));
      progress();
    }
  };

  const each = async (jobs: readonly ParseJob[], onOutcome: OutcomeCallback, onProgress?: ProgressCallback): Promise<void> => {
    let done = 0;
    const progress = (): void => onProgress?.(++done, jobs.length);
    // Running from sources (vitest) the built worker does not exist: parse here instead.
    const useWorkers = jobs.length >= inProcessBelow && workersAvailable();
    if (!useWorkers) {
      takeWorkers(0, NO_PLAN);
      return parseInProcess(jobs, onOutcome, progress);
    }
    const threads = Math.min(options.threads, Math.ceil(jobs.length / BATCH_SIZE));
    const plan = planLanguages(jobs.map((job) => job.path), threads);
    const workers = takeWorkers(threads, plan);
    const answered = new Set<string>();
    const leftovers = await runWorkers(jobs, workers, plan, (outcome) => {
      answered.add(outcome.path);
      onOutcome(outcome);
      progress();
    });
    // Jobs of a worker that died are parsed here, so one crash costs time, not tags.
    await parseInProcess(leftovers.filter((job) => !answered.has(job.path)), onOutcome, progress);
  };

  const parse = async (jobs: readonly ParseJob[], onProgress?: ProgressCallback): Promise<ParseOutcome[]> => {
    const outcomes = new Map<string, ParseOutcome>();
    await each(jobs, (outcome) => void outcomes.set(outcome.path, outcome), onProgress);
    return jobs.map((job) => outcomes.get(job.path) ?? { path: job.path, ok: false, error: 'not parsed' });
  };

  return { parse, each, warmUp };
}

/**
 * Hands out batches to the workers until the queues are empty, then ends them; returns the jobs no
 * worker answered. Each worker takes the files of its own languages (see planLanguages) first, then
 * from the queue all share.
 */
async function runWorkers(jobs: readonly ParseJob[], workers: readonly PoolWorker[], plan: LanguagePlan, onOutcome: OutcomeCallback): Promise<ParseJob[]> {
  const ownerOf = new Map<LanguageId, number>();
  plan.own.forEach((langs, index) => langs.forEach((lang) => ownerOf.set(lang, Math.min(index, workers.length - 1))));
  const owned: ParseJob[][] = workers.map(() => []);
  const queue: ParseJob[] = [];
  for (const job of jobs) {
    const lang = languageForPath(job.path);
    const owner = lang ? ownerOf.get(lang) : undefined;
    if (owner === undefined) queue.push(job);
    else owned[owner]?.push(job);
  }
  const answered = new Set<string>();
  const leftovers: ParseJob[] = [];
  const threads = workers.length;

  const runOne = (handle: PoolWorker, index: number): Promise<void> => new Promise((resolve) => {
    const { worker } = handle;
    const mine = owned[index] ?? [];
    let inFlight: ParseJob[] = [];
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      leftovers.push(...inFlight.filter((job) => !answered.has(job.path)));
      inFlight = [];
      void worker.terminate().then(() => resolve(), () => resolve());
    };
    const sendNext = (): void => {
      // Smaller batches near the end keep both threads busy when a few files are huge.
      inFlight = mine.length > 0
        ? mine.splice(0, BATCH_SIZE)
        : queue.splice(0, Math.max(1, Math.min(BATCH_SIZE, Math.floor(queue.length / (threads * 4)))));
      if (inFlight.length === 0) return finish();
      worker.postMessage({ type: 'batch', jobs: inFlight } satisfies TagsWorkerRequest);
    };
    if (handle.dead) return finish();
    worker.ref();
    worker.on('message', (reply: TagsWorkerReply) => {
      for (const outcome of reply.outcomes) {
        answered.add(outcome.path);
        onOutcome(fromWire(outcome));
      }
      sendNext();
    });
    worker.on('error', finish);
    worker.on('exit', finish);
    sendNext();
  });

  await Promise.all(workers.map(runOne));
  // If every worker died early, what they never took is left in the queues.
  leftovers.push(...queue, ...owned.flat());
  return leftovers;
}
