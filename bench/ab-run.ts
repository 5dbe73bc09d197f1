// `npm run bench -- --against REF`: each section run by the build of REF and by this build in turn
// (before, after, before, after, ...), each run a child process of that build's own bench, so the two
// builds meet the same stretch of a shared machine. Returns the new build's usual report and the
// before/after comparison.
import type { Dirent } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { prepareBaseline, describeCheckout, type BaselineOptions } from './against.js';
import { runInGroup } from './child-group.js';
import { compareSection, mergeRounds, type AbReport, type BuildInfo } from './compare.js';
import type { BenchRow, SectionResult } from './measure.js';
import type { BenchReport } from './report.js';

export type Side = 'before' | 'after';

/** Runs one section once with one build. */
export type SectionRunner = (side: Side, section: string) => Promise<SectionResult>;

export interface InterleaveOptions {
  readonly sections: readonly string[];
  readonly rounds: number;
  readonly run: SectionRunner;
  /** Called before every section run (empties the state a run leaves in the shared trees). */
  readonly beforeEach: () => Promise<void>;
  readonly log: (line: string) => void;
  readonly signal?: AbortSignal;
}

export interface SectionRounds {
  readonly name: string;
  readonly before: SectionResult[];
  readonly after: SectionResult[];
}

/** Section by section, `rounds` times before then after; a failing run is kept as a failed result. */
export async function runInterleaved(options: InterleaveOptions): Promise<SectionRounds[]> {
  const results: SectionRounds[] = [];
  for (const name of options.sections) {
    const section: SectionRounds = { name, before: [], after: [] };
    results.push(section);
    for (let round = 1; round <= options.rounds; round++) {
      for (const side of ['before', 'after'] as const) {
        options.signal?.throwIfAborted();
        options.log(`== ${name}, round ${round} of ${options.rounds}: ${side}`);
        await options.beforeEach();
        section[side].push(await options.run(side, name).catch((error: unknown) => {
          options.signal?.throwIfAborted();
          return failed(name, error);
        }));
      }
    }
  }
  return results;
}

function failed(name: string, error: unknown): SectionResult {
  const message = error instanceof Error ? error.message : String(error);
  return { name, rows: [], notes: [], error: message.split('\n')[0] ?? message };
}

/**
 * Removes every `.tandem/` folder under the bench cache: the repository-level map, rank and tag caches
 * one build left in a shared tree must not be read by the other (each section warms its own caches).
 * Links are not followed; `.git` and `node_modules` are not entered.
 */
export async function clearRepoState(cacheDir: string): Promise<number> {
  let removed = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // gone or unreadable: nothing of ours to clear
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === '.git' || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.name === '.tandem') {
        await rm(full, { recursive: true, force: true });
        removed++;
      } else await walk(full);
    }
  };
  await walk(cacheDir);
  return removed;
}

/** The parts of bench.json this needs, checked: any build's report since the bench wrote one. */
export function sectionFromReport(text: string, name: string): SectionResult | undefined {
  const report = JSON.parse(text) as { sections?: unknown };
  if (!Array.isArray(report.sections)) throw new Error('bench.json has no sections');
  const section = (report.sections as Array<Record<string, unknown>>).find((s) => s?.['name'] === name);
  if (section === undefined) return undefined;
  const rows = Array.isArray(section['rows']) ? (section['rows'] as unknown[]) : [];
  const valid = rows.filter((row): row is BenchRow => {
    const r = row as Record<string, unknown> | null;
    return typeof r?.['metric'] === 'string' && typeof r['value'] === 'number' && typeof r['unit'] === 'string';
  });
  return {
    name,
    rows: valid,
    notes: Array.isArray(section['notes']) ? section['notes'].filter((n): n is string => typeof n === 'string') : [],
    ...(section['details'] === undefined ? {} : { details: section['details'] }),
    ...(typeof section['error'] === 'string' ? { error: section['error'] } : {}),
  };
}

export interface SpawnSectionOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly quick: boolean;
  readonly log: (line: string) => void;
  readonly signal?: AbortSignal;
}

/**
 * Runs `node <root>/dist/bench/run.js --only <section>` and reads the section from the bench.json it
 * writes in its own `.bench-cache/` (every build's bench finds its cache beside its package.json).
 */
export async function spawnSection(root: string, label: string, section: string, options: SpawnSectionOptions): Promise<SectionResult> {
  const reportFile = path.join(root, '.bench-cache', 'bench.json');
  await rm(reportFile, { force: true });
  const args = [path.join(root, 'dist', 'bench', 'run.js'), '--only', section, ...(options.quick ? ['--quick'] : [])];
  const { code, stderrTail } = await runInGroup(process.execPath, args, {
    cwd: root, env: options.env, onStderrLine: (line) => options.log(`  [${label}] ${line}`), ...(options.signal ? { signal: options.signal } : {}),
  });
  const lastLine = stderrTail.trim().split('\n').at(-1) ?? '';
  if (code === 2 && /unknown section/.test(stderrTail)) return { name: section, rows: [], notes: [], error: `no such section in this build (${lastLine})` };
  const text = await readFile(reportFile, 'utf8').catch(() => undefined);
  if (text === undefined) throw new Error(`the ${label} bench exited ${code} without a report: ${lastLine}`);
  return sectionFromReport(text, section) ?? { name: section, rows: [], notes: [], error: `the ${label} bench reported no section ${section}` };
}

export interface AgainstBenchOptions extends Omit<BaselineOptions, 'ref'> {
  /** The revision or built checkout to compare with. */
  readonly against: string;
  readonly sections: readonly string[];
  readonly rounds: number;
  readonly threshold: number;
  readonly quick: boolean;
}

export interface AgainstBenchResult {
  /** The new build's usual report (each section from its round nearest the medians), as bench.json holds it. */
  readonly report: BenchReport;
  readonly ab: AbReport;
}

/** Prepares the baseline build, runs the sections interleaved, removes the baseline's worktree. */
export async function runAgainstBench(options: AgainstBenchOptions): Promise<AgainstBenchResult> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const baseline = await prepareBaseline({ ...options, ref: options.against });
  try {
    const after: BuildInfo = { label: 'this checkout', root: options.packageRoot, ...(await describeCheckout(options.packageRoot, options.env)) };
    const roots = { before: baseline.info.root, after: options.packageRoot };
    const spawnOptions = { env: options.env, quick: options.quick, log: options.log, ...(options.signal ? { signal: options.signal } : {}) };
    const rounds = await runInterleaved({
      sections: options.sections,
      rounds: options.rounds,
      run: (side, section) => spawnSection(roots[side], side, section, spawnOptions),
      beforeEach: async () => {
        for (const dir of new Set([options.cacheDir, ...baseline.cacheDirs])) await clearRepoState(dir);
      },
      log: options.log,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const seconds = (performance.now() - started) / 1000;
    const report: BenchReport = {
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
      cpus: os.availableParallelism(),
      quick: options.quick,
      startedAt,
      seconds,
      sections: rounds.map((s) => mergeRounds(s.name, s.after)),
    };
    const ab: AbReport = {
      before: baseline.info,
      after,
      rounds: options.rounds,
      threshold: options.threshold,
      quick: options.quick,
      startedAt,
      seconds,
      sections: rounds.map((s) => compareSection(s.name, s.before, s.after, options.threshold)),
    };
    return { report, ab };
  } finally {
    await baseline.dispose();
  }
}
