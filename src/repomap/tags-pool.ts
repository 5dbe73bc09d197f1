// Parses files into tags on worker threads, or in-process for small jobs (a worker's start-up,
// ~grammar loading, costs more than parsing a few dozen files).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createGrammarLoader } from '../platform/tree-sitter.js';
import type { GrammarLoader } from '../platform/tree-sitter.js';
import { createTagExtractor } from './extract-tags.js';
import type { TagExtractor } from './extract-tags.js';
import { parseFile } from './parse-file.js';
import type { ParseJob, ParseOutcome } from './parse-file.js';
import type { TagsWorkerData, TagsWorkerReply, TagsWorkerRequest } from './tags-worker.js';

export type ProgressCallback = (done: number, total: number) => void;

export interface TagsPool {
  /** One outcome per job, in job order. */
  parse(jobs: readonly ParseJob[], onProgress?: ProgressCallback): Promise<ParseOutcome[]>;
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
}

const BATCH_SIZE = 16;

/** Two threads is where parsing stops getting faster on the 2-core machines we measured. */
export function defaultTagThreads(availableParallelism: number): number {
  return Math.max(0, Math.min(2, availableParallelism));
}

export function createTagsPool(options: TagsPoolOptions): TagsPool {
  // Even one file goes to a worker: parsing on the main thread makes V8 optimise the grammar's wasm
  // there afterwards, which blocked the main thread for ~0.45 s after a one-file parse (measured),
  // while a worker answers in ~0.2 s and leaves the main thread free.
  const inProcessBelow = options.inProcessBelow ?? 1;
  const workerUrl = options.workerUrl ?? new URL('./tags-worker.js', import.meta.url);
  let extractor: TagExtractor | undefined;

  const parseInProcess = async (jobs: readonly ParseJob[], progress: () => void): Promise<ParseOutcome[]> => {
    extractor ??= createTagExtractor(
      options.loader ?? createGrammarLoader(options.grammarDir ? { grammarDir: options.grammarDir } : {}),
      options.queriesDir);
    const outcomes: ParseOutcome[] = [];
    for (const job of jobs) {
      outcomes.push(await parseFile(extractor, job));
      progress();
    }
    return outcomes;
  };

  const parse = async (jobs: readonly ParseJob[], onProgress?: ProgressCallback): Promise<ParseOutcome[]> => {
    let done = 0;
    const progress = (): void => onProgress?.(++done, jobs.length);
    // Running from sources (vitest) the built worker does not exist: parse here instead.
    const useWorkers = options.threads > 0 && jobs.length >= inProcessBelow && existsSync(fileURLToPath(workerUrl));
    if (!useWorkers) return parseInProcess(jobs, progress);
    const workerData: TagsWorkerData = { queriesDir: options.queriesDir, grammarDir: options.grammarDir };
    const threads = Math.min(options.threads, Math.ceil(jobs.length / BATCH_SIZE));
    const { outcomes, leftovers } = await runWorkers(jobs, threads, {
      url: workerUrl, workerData, execArgv: options.execArgv ? [...options.execArgv] : undefined, progress,
    });
    // Jobs of a worker that died are parsed here, so one crash costs time, not tags.
    for (const outcome of await parseInProcess(leftovers, progress)) outcomes.set(outcome.path, outcome);
    return jobs.map((job) => outcomes.get(job.path) ?? { path: job.path, ok: false, error: 'not parsed' });
  };

  return { parse };
}

interface WorkerSetup {
  readonly url: URL;
  readonly workerData: TagsWorkerData;
  readonly execArgv: string[] | undefined;
  readonly progress: () => void;
}

interface WorkersResult { outcomes: Map<string, ParseOutcome>; leftovers: ParseJob[] }

/** Hands out batches from one queue to `threads` workers until it is empty. */
async function runWorkers(jobs: readonly ParseJob[], threads: number, setup: WorkerSetup): Promise<WorkersResult> {
  const queue = [...jobs];
  const outcomes = new Map<string, ParseOutcome>();
  const leftovers: ParseJob[] = [];

  const runOne = (): Promise<void> => new Promise((resolve) => {
    const worker = new Worker(setup.url, { workerData: setup.workerData, execArgv: setup.execArgv });
    let inFlight: ParseJob[] = [];
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      leftovers.push(...inFlight.filter((job) => !outcomes.has(job.path)));
      inFlight = [];
      void worker.terminate().then(() => resolve(), () => resolve());
    };
    const sendNext = (): void => {
      // Smaller batches near the end keep both threads busy when a few files are huge.
      inFlight = queue.splice(0, Math.max(1, Math.min(BATCH_SIZE, Math.floor(queue.length / (threads * 4)))));
      if (inFlight.length === 0) return finish();
      worker.postMessage({ type: 'batch', jobs: inFlight } satisfies TagsWorkerRequest);
    };
    worker.on('message', (reply: TagsWorkerReply) => {
      if (reply.type === 'idle') return sendNext();
      outcomes.set(reply.outcome.path, reply.outcome);
      setup.progress();
    });
    worker.on('error', finish);
    worker.on('exit', finish);
    sendNext();
  });

  await Promise.all(Array.from({ length: threads }, runOne));
  // If every worker died early, what they never took is left in the queue.
  leftovers.push(...queue);
  return { outcomes, leftovers };
}
