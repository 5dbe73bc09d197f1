// Smoke test of `npm run bench`: every section in --quick mode on tiny inputs, the report's shape,
// the table and the JSON file. Needs the built CLI (npm test builds first); fetches nothing.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bigFile, runEditsBench, searchReplaceReply, udiffReply } from '../../bench/edits.js';
import { builtPaths, median, runNode, type SectionContext, type SectionResult } from '../../bench/measure.js';
import { runMemoryBench } from '../../bench/memory.js';
import { runOneShotBench } from '../../bench/one-shot.js';
import { DIFF_LIMIT_TOKENS, runPromptsBench } from '../../bench/prompts.js';
import { formatTable, writeReport } from '../../bench/report.js';
import { BenchUsageError, SECTIONS, parseBenchArgs, runBench } from '../../bench/run.js';
import { runStartupBench } from '../../bench/startup.js';
import { runMapSection } from '../../bench/map-section.js';
import { parseReply } from '../../src/coders/registry.js';
import { tempDir } from '../support/temp-repo.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PATH_ENV = process.env['PATH'] ?? '/usr/bin:/bin';

async function context(): Promise<SectionContext> {
  const cacheDir = path.join(tempDir('tandem-bench-'), '.bench-cache');
  await mkdir(cacheDir, { recursive: true });
  return { packageRoot: PACKAGE_ROOT, cacheDir, quick: true, pathEnv: PATH_ENV, log: () => {} };
}

function expectRows(result: SectionResult, name: string): void {
  expect(result.error).toBeUndefined();
  expect(result.name).toBe(name);
  expect(result.rows.length).toBeGreaterThan(0);
  for (const row of result.rows) {
    expect(Number.isFinite(row.value), `${row.metric} = ${row.value}`).toBe(true);
    expect(row.value).toBeGreaterThan(0);
    if (row.reference) expect(row.ratio).toBeCloseTo(row.value / row.reference.value, 6);
  }
}

const hasCtags = (() => {
  try {
    execFileSync('ctags', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('bench arguments', () => {
  it('reads --quick and --only, and refuses unknown sections and options', () => {
    expect(parseBenchArgs([])).toEqual({ quick: false, only: Object.keys(SECTIONS) });
    expect(parseBenchArgs(['--quick', '--only', 'edits,prompts'])).toEqual({ quick: true, only: ['edits', 'prompts'] });
    expect(parseBenchArgs(['--only=startup']).only).toEqual(['startup']);
    expect(() => parseBenchArgs(['--only', 'nope'])).toThrow(BenchUsageError);
    expect(() => parseBenchArgs(['--fast'])).toThrow(/unknown option --fast/);
    expect(() => parseBenchArgs(['--only'])).toThrow(/needs/);
  });

  it('takes the median', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('child peak memory', () => {
  it("reports the child's own peak, not the peak of the process that spawned it", async () => {
    const { rssProbe } = builtPaths(PACKAGE_ROOT);
    const env = { PATH: PATH_ENV };
    // A large parent: getrusage's maxRSS would hand this size down to the child through fork.
    const ballast = Buffer.alloc(200 * 1024 * 1024, 1);
    const empty = await runNode(['-e', '0'], { env, rssProbe });
    const grown = await runNode(['-e', 'globalThis.keep = Buffer.alloc(150 * 1024 * 1024, 1)'], { env, rssProbe });
    expect(ballast.length).toBeGreaterThan(0);
    expect(empty.peakRssMb).toBeLessThan(150);
    expect(grown.peakRssMb - empty.peakRssMb).toBeGreaterThan(120);
    expect((await runNode(['-e', '0'], { env })).peakRssMb).toBeNaN();
  });

  it('reports the peak at the main thread\'s exit, not at a worker thread\'s (workers inherit the probe)', async () => {
    const { rssProbe } = builtPaths(PACKAGE_ROOT);
    const worker = path.join(tempDir('tandem-bench-worker-'), 'worker.mjs');
    writeFileSync(worker, '');
    // The worker ends first; the main thread grows only after that.
    const script = `const { Worker } = require('node:worker_threads'); new Worker(${JSON.stringify(worker)}).on('exit', () => { globalThis.keep = Buffer.alloc(150 * 1024 * 1024, 1); });`;
    const run = await runNode(['-e', script], { env: { PATH: PATH_ENV }, rssProbe });
    expect(run.code).toBe(0);
    expect(run.peakRssMb).toBeGreaterThan(150);
  });
});

describe('bench report', () => {
  it('runs the chosen sections in order, reports a failing one and keeps going; prints and writes JSON', async () => {
    const ctx = await context();
    const report = await runBench({
      ...ctx,
      args: { quick: true, only: ['b', 'a'] },
      sections: {
        a: async () => ({ name: 'a', rows: [{ metric: 'alpha', value: 2, unit: 'ms', reference: { label: 'ref', value: 4 }, ratio: 0.5, target: '< 3 ms', ok: true }], notes: ['note a'] }),
        b: async () => {
          throw new Error('broken section\nsecond line');
        },
      },
    });
    expect(report.sections.map((s) => s.name)).toEqual(['b', 'a']);
    expect(report.sections[0]!.error).toBe('broken section');
    const table = formatTable(report);
    expect(table).toMatch(/b\s+FAILED: broken section/);
    expect(table).toMatch(/a\s+alpha\s+2\.00 ms\s+ref: 4\.00\s+0\.50x\s+< 3 ms ok/);
    expect(table).toContain('a: note a');
    const file = await writeReport(ctx.cacheDir, report);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ quick: true, sections: [{ name: 'b' }, { name: 'a', rows: [{ metric: 'alpha' }] }] });
  });
});

// The sections that spawn the built CLI many times take 10-25 s alone and far longer on a loaded
// 2-core machine: their timeout is only a guard against a hang, never a speed check.
const SPAWNING_SECTION_TIMEOUT_MS = 240_000;

describe('bench sections (quick)', () => {
  it('edits: generated replies parse into one edit per block and plan without failures', async () => {
    const file = bigFile(80);
    expect(parseReply('diff', searchReplaceReply(file), { chatFiles: [] }).edits).toHaveLength(10);
    expect(parseReply('diff', searchReplaceReply(file, true), { chatFiles: [] }).edits).toHaveLength(10);
    expect(parseReply('udiff', udiffReply(file), { chatFiles: [] }).edits).toHaveLength(10);
    const result = await runEditsBench(await context());
    expectRows(result, 'edits');
    expect(result.rows.map((r) => r.unit)).toContain('MB/s');
    expect(result.notes.join('\n')).not.toMatch(/failed edits/);
  });

  it('prompts: counts every format and compares diff with its limit', async () => {
    const result = await runPromptsBench(await context());
    expectRows(result, 'prompts');
    expect(result.rows).toHaveLength(5);
    const diff = result.rows.find((r) => r.metric.startsWith('diff ('))!;
    expect(diff.target).toBe(`<= ${DIFF_LIMIT_TOKENS}`);
    expect(diff.ok).toBe(diff.value <= DIFF_LIMIT_TOKENS);
    expect(diff.reference?.label).toMatch(/Aider/);
  });

  it('startup: times --version and --help next to node -e 0', async () => {
    const result = await runStartupBench(await context());
    expectRows(result, 'startup');
    expect(result.rows.map((r) => r.metric)).toEqual(['node -e 0', 'tandem --version', 'tandem --help']);
    expect(result.rows[1]!.reference?.label).toBe('node -e 0');
  });

  it('one-shot and memory: real requests through the built CLI against the fake server', async () => {
    // Separate caches, so the two can run side by side: only the shape is checked here.
    const [oneShot, memory] = await Promise.all([runOneShotBench(await context()), runMemoryBench(await context())]);
    expectRows(oneShot, 'one-shot');
    expect(oneShot.rows).toHaveLength(7);
    // Counted through a `git` first on PATH: a request starts a few (never none: it commits).
    const gitRow = oneShot.rows.find((r) => r.metric === 'git processes per request, small repo')!;
    expect(gitRow.value).toBeGreaterThanOrEqual(2);
    expect(gitRow.value).toBeLessThan(30);
    expect(oneShot.rows.find((r) => r.metric.endsWith('CPU (user + system)'))?.reference?.label).toBe('node -e 0 CPU');
    expectRows(memory, 'memory');
    // The probe reports the child's own RSS: tandem with a map needs more than an empty node.
    expect(memory.rows[1]!.ratio).toBeGreaterThan(1);
  }, SPAWNING_SECTION_TIMEOUT_MS);

  it.skipIf(!hasCtags)('repomap: the repo-map bench on a small generated tree, with ctags ratios', async () => {
    const result = await runMapSection(await context());
    expectRows(result, 'repomap');
    expect(result.rows.find((r) => r.metric.endsWith('cold'))?.reference?.label).toBe('ctags -R');
  }, SPAWNING_SECTION_TIMEOUT_MS);
});
