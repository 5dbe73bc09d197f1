// Parses files into tags on worker threads, or in-process for small jobs (a worker's start-up,
// ~grammar loading, costs more than parsing a few dozen files).
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { pathExists } from '../platform/tag-files.js';
import { createGrammarLoader, languageForPath } from '../platform/tree-sitter.js';
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
   * Started threads do not keep the process alive, and end if no parse takes them soon.
   */
  warmUp?(languages: readonly LanguageId[], expectedJobs: number): void;
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
}

const BATCH_SIZE = 16;

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
    const workerData: TagsWorkerData = { queriesDir: options.queriesDir, grammarDir: options.grammarDir, preload: languages };
    const worker = new Worker(workerUrl, { workerData, execArgv: options.execArgv ? [...options.execArgv] : undefined });
    const handle: PoolWorker = { worker, dead: false };
    const die = (): void => {
      handle.dead = true;
    };
    worker.on('error', die);
    worker.on('exit', die);
    return handle;
  };
  /** The warmed-up threads (at most `count`, the rest ended), topped up with new ones. */
  const takeWorkers = (count: number, languages: readonly LanguageId[]): PoolWorker[] => {
    const taken = warm.splice(0, count);
    for (const extra of warm) void extra.worker.terminate();
    warm = [];
    while (taken.length < count) taken.push(boot(languages));
    return taken;
  };

  const warmUp = (languages: readonly LanguageId[], expectedJobs: number): void => {
    if (warm.length > 0 || expectedJobs <= 0 || !workersAvailable()) return;
    const count = Math.min(options.threads, Math.ceil(expectedJobs / BATCH_SIZE));
    const started = Array.from({ length: count }, () => boot(languages));
    for (const { worker } of started) worker.unref();
    warm = started;
    const timer = setTimeout(() => {
      if (warm !== started) return;
      takeWorkers(0, []);
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
      takeWorkers(0, []);
      return parseInProcess(jobs, onOutcome, progress);
    }
    const threads = Math.min(options.threads, Math.ceil(jobs.length / BATCH_SIZE));
    const workers = takeWorkers(threads, languagesOf(jobs.map((job) => job.path)));
    const answered = new Set<string>();
    const leftovers = await runWorkers(jobs, workers, (outcome) => {
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

/** Hands out batches from one queue to the workers until it is empty, then ends them; returns the jobs no worker answered. */
async function runWorkers(jobs: readonly ParseJob[], workers: readonly PoolWorker[], onOutcome: OutcomeCallback): Promise<ParseJob[]> {
  const queue = [...jobs];
  const answered = new Set<string>();
  const leftovers: ParseJob[] = [];
  const threads = workers.length;

  const runOne = (handle: PoolWorker): Promise<void> => new Promise((resolve) => {
    const { worker } = handle;
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
      inFlight = queue.splice(0, Math.max(1, Math.min(BATCH_SIZE, Math.floor(queue.length / (threads * 4)))));
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
  // If every worker died early, what they never took is left in the queue.
  leftovers.push(...queue);
  return leftovers;
}
