// The worker pool gives the same outcomes as in-process parsing, and reports progress.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { findQueriesDir } from '../../src/repomap/extract-tags.js';
import type { ParseJob } from '../../src/repomap/parse-file.js';
import { createTagsPool, defaultTagThreads, languagesOf, planLanguages } from '../../src/repomap/tags-pool.js';
import type { TagsWorkerReply, TagsWorkerRequest } from '../../src/repomap/tags-worker.js';
import { CLI } from '../support/cli.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const queriesDir = findQueriesDir(import.meta.url);
// Languages whose queries compile fast: each worker compiles its own (the goldens cover the rest).
const CHEAP = new Set(['c', 'go', 'java', 'php', 'rust']);
const inProcessPool = createTagsPool({ queriesDir, threads: 0 });

async function fixtureJobs(): Promise<ParseJob[]> {
  const jobs: ParseJob[] = [];
  for (const lang of (await readdir(FIXTURES)).filter((l) => CHEAP.has(l)).sort()) {
    for (const file of (await readdir(path.join(FIXTURES, lang))).sort()) {
      if (file !== 'expected-tags.json') jobs.push({ path: `${lang}/${file}`, absPath: path.join(FIXTURES, lang, file) });
    }
  }
  jobs.push({ path: 'missing/gone.py', absPath: path.join(FIXTURES, 'missing/gone.py') });
  return jobs;
}

describe('tags pool', () => {
  it('loads a language with less than a thread\'s share of the files in one thread only', () => {
    const paths = [
      ...Array.from({ length: 58 }, (_, i) => `gyp/m${i}.py`), ...Array.from({ length: 18 }, (_, i) => `lib/m${i}.js`),
      'a.cc', 'b.cc', 'Find.cs', 'test.sh', 'README.md',
    ];
    expect(planLanguages(paths, 2)).toEqual({ shared: ['python'], own: [['javascript'], ['bash', 'cpp', 'csharp']] });
    // Two languages with a share each: both threads load both and split their files.
    expect(planLanguages(['a.py', 'b.ts'], 2)).toEqual({ shared: ['python', 'typescript'], own: [[], []] });
    expect(planLanguages(['a.py', 'b.ts', 'c.go'], 1)).toEqual({ shared: ['go', 'python', 'typescript'], own: [[]] });
  });

  it('parses on worker threads (the .ts worker through tsx) exactly as in-process', async () => {
    const jobs = await fixtureJobs();
    const inProcess = await inProcessPool.parse(jobs);
    const progress: number[] = [];
    const workers = createTagsPool({
      queriesDir, threads: 2, inProcessBelow: 1,
      workerUrl: new URL('../../src/repomap/tags-worker.ts', import.meta.url), execArgv: ['--import', 'tsx'],
    });
    const threaded = await workers.parse(jobs, (done, total) => {
      expect(total).toBe(jobs.length);
      progress.push(done);
    });
    expect(threaded).toEqual(inProcess);
    expect(progress).toEqual(jobs.map((_, i) => i + 1));
    expect(inProcess.filter((o) => o.ok).length).toBe(jobs.length - 1);
    expect(inProcess.at(-1)).toMatchObject({ path: 'missing/gone.py', ok: false });
  });

  it('has a worker beside the bundled CLI that answers a batch itself', async () => {
    // tags-pool looks for ./tags-worker.js next to its own chunk; without it the map would quietly parse
    // on the main thread, so the bundle's worker is checked directly, not through the pool's fallback.
    const jobs = (await fixtureJobs()).slice(0, 3);
    const worker = new Worker(path.join(path.dirname(CLI), 'tags-worker.js'), { workerData: { queriesDir } });
    try {
      const reply = await new Promise<TagsWorkerReply>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({ type: 'batch', jobs } satisfies TagsWorkerRequest);
      });
      expect(reply.outcomes.map((o) => [o.path, o.ok])).toEqual(jobs.map((job) => [job.path, true]));
    } finally {
      await worker.terminate();
    }
  });

  it('parses in-process when the worker module does not exist', async () => {
    const jobs = (await fixtureJobs()).slice(0, 3);
    const pool = createTagsPool({ queriesDir, threads: 2, inProcessBelow: 1, workerUrl: new URL('file:///nonexistent/worker.js') });
    const outcomes = await pool.parse(jobs);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
  });

  it('recovers when every worker dies: their jobs are parsed in-process', async () => {
    const jobs = (await fixtureJobs()).slice(0, 4);
    const pool = createTagsPool({
      queriesDir, threads: 2, inProcessBelow: 1,
      workerUrl: new URL('./fixtures/python/shapes.py', import.meta.url), // not a loadable worker
    });
    const outcomes = await pool.parse(jobs);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true]);
  });

  it('parses on warmed-up threads, preloaded with several languages, exactly as in-process', async () => {
    const jobs = await fixtureJobs();
    const inProcess = await inProcessPool.parse(jobs);
    const pool = createTagsPool({
      queriesDir, threads: 2,
      workerUrl: new URL('../../src/repomap/tags-worker.ts', import.meta.url), execArgv: ['--import', 'tsx'],
    });
    pool.warmUp?.(languagesOf(jobs.map((job) => job.path)), jobs.length);
    expect(await pool.parse(jobs)).toEqual(inProcess);
  });

  it('tops a first guess of one thread up to what the files need, and parses as in-process', async () => {
    const jobs = await fixtureJobs();
    const started: (readonly string[])[] = [];
    const pool = createTagsPool({
      queriesDir, threads: 2, onThreadStart: (languages) => void started.push(languages),
      workerUrl: new URL('../../src/repomap/tags-worker.ts', import.meta.url), execArgv: ['--import', 'tsx'],
    });
    const paths = jobs.map((job) => job.path);
    pool.warmUp?.(['c'], 1);
    // Two threads' worth of files (a thread takes batches of 16); asking twice starts nothing more.
    pool.warmUp?.(languagesOf(paths), 40, paths);
    pool.warmUp?.(languagesOf(paths), 40, paths);
    const plan = planLanguages(paths, 2);
    expect(started).toEqual([['c'], [...plan.shared, ...(plan.own[1] ?? [])].sort()]);
    expect(await pool.parse(jobs)).toEqual(await inProcessPool.parse(jobs));
    expect(started).toHaveLength(2);
  });

  it('recovers when warmed-up threads die before any batch', async () => {
    const jobs = (await fixtureJobs()).slice(0, 4);
    const pool = createTagsPool({
      queriesDir, threads: 2,
      workerUrl: new URL('./fixtures/python/shapes.py', import.meta.url), // not a loadable worker
    });
    pool.warmUp?.(['c'], 40);
    const outcomes = await pool.parse(jobs);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true]);
  });

  it('names the languages of a list of paths once each, sorted', () => {
    expect(languagesOf(['b.py', 'a.ts', 'c.py', 'README.md', 'x/y.tsx'])).toEqual(['python', 'tsx', 'typescript']);
  });

  it('caps the default thread count at two', () => {
    expect(defaultTagThreads(1)).toBe(1);
    expect(defaultTagThreads(8)).toBe(2);
  });
});
