// `npm run bench`: runs the benchmark sections in order, prints one table and writes
// .bench-cache/bench.json. Options: --quick (fewer runs, smaller trees), --only NAME,..., and
// --against REF for before/after in one run (bench/ab-run.ts); --help lists them.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runAgainstBench } from './ab-run.js';
import { BaselineError } from './against.js';
import { runCacheBench } from './cache.js';
import { runChatOverheadBench } from './chat-overhead.js';
import { formatAbTable } from './compare.js';
import { runEditsBench } from './edits.js';
import { runExitTimeBench } from './exit-time.js';
import { runMapSection } from './map-section.js';
import type { SectionContext, SectionResult } from './measure.js';
import { runMemoryBench } from './memory.js';
import { runOneShotBench } from './one-shot.js';
import { runPromptsBench } from './prompts.js';
import { formatTable, writeReport, type BenchReport } from './report.js';
import { runStartupBench } from './startup.js';
import { runTracingBench } from './tracing.js';
import { runWatchBench } from './watch.js';

export const SECTIONS: Readonly<Record<string, (ctx: SectionContext) => Promise<SectionResult>>> = {
  startup: runStartupBench,
  'one-shot': runOneShotBench,
  repomap: runMapSection,
  edits: runEditsBench,
  prompts: runPromptsBench,
  cache: runCacheBench,
  chat: runChatOverheadBench,
  memory: runMemoryBench,
  exit: runExitTimeBench,
  tracing: runTracingBench,
  watch: runWatchBench,
};

export class BenchUsageError extends Error {
  readonly kind = 'usage';
}

/** The before/after mode's options (`--against`). */
export interface AgainstArgs {
  /** A git revision of this repository, or the path of a built tandem checkout. */
  readonly ref: string;
  /** Runs of each section per build, alternated. */
  readonly rounds: number;
  /** Rows worse by more than this fraction are flagged (0.1 = 10 %). */
  readonly threshold: number;
}

export interface BenchArgs {
  readonly quick: boolean;
  readonly only: readonly string[];
  readonly against?: AgainstArgs;
  readonly help?: true;
}

export const DEFAULT_ROUNDS = 2;
export const DEFAULT_THRESHOLD_PERCENT = 10;

export const USAGE = `usage: npm run bench -- [--quick] [--only SECTION,...] [--against REF [--rounds N] [--threshold PERCENT]]`;

export function benchHelp(): string {
  return [
    USAGE,
    '',
    'Runs the benchmark sections, prints one table and writes .bench-cache/bench.json.',
    '',
    '  --quick              fewer runs, smaller trees (the test suite\'s smoke run)',
    `  --only S1,S2         these sections only, in this order: ${Object.keys(SECTIONS).join(', ')}`,
    '  --against REF        before/after in one run: REF is a git revision of this repository (checked out in a',
    '                       temporary worktree, built, removed at the end) or the path of a tandem checkout',
    '                       already built (used as it is). Each section runs as a child process of each build\'s',
    '                       own bench, alternately (before, after, before, after, ...). Prints this build\'s usual',
    '                       table (each section from its round nearest the medians) and a before/after table of',
    '                       medians, and writes .bench-cache/bench.json and .bench-cache/bench-ab.json. A row is',
    '                       flagged WORSE past the threshold when every round of this build is worse than every',
    '                       round of REF; past it with overlapping rounds it is marked worse?',
    `  --rounds N           with --against: runs of each section per build (default ${DEFAULT_ROUNDS})`,
    `  --threshold PERCENT  with --against: flag rows worse by more than this (default ${DEFAULT_THRESHOLD_PERCENT})`,
    '  --help               this text',
  ].join('\n');
}

function parseSections(value: string): string[] {
  const only = value.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = only.filter((name) => !(name in SECTIONS));
  if (unknown.length > 0) throw new BenchUsageError(`unknown section ${unknown.join(', ')}; sections: ${Object.keys(SECTIONS).join(', ')}`);
  return only;
}

function parseNumber(option: string, value: string, valid: (n: number) => boolean, what: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || !valid(number)) throw new BenchUsageError(`${option} needs ${what}, not ${value}`);
  return number;
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let quick = false;
  let help = false;
  let only = Object.keys(SECTIONS);
  let ref: string | undefined;
  let rounds: number | undefined;
  let threshold: number | undefined;
  const needs: Record<string, string> = { '--only': 'a comma-separated list of sections', '--against': 'a git revision or the path of a built checkout',
    '--rounds': 'a number of rounds', '--threshold': 'a percentage' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else {
      const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
      if (!(name in needs)) throw new BenchUsageError(`unknown option ${arg}; ${USAGE}`);
      const value = inline ?? argv[++i];
      if (!value) throw new BenchUsageError(`${name} needs ${needs[name]}`);
      if (name === '--only') only = parseSections(value);
      else if (name === '--against') ref = value;
      else if (name === '--rounds') rounds = parseNumber(name, value, (n) => Number.isInteger(n) && n >= 1 && n <= 50, 'a whole number from 1 to 50');
      else threshold = parseNumber(name, value, (n) => n >= 0 && n <= 1000, 'a percentage from 0 to 1000');
    }
  }
  if (ref === undefined && (rounds !== undefined || threshold !== undefined)) throw new BenchUsageError('--rounds and --threshold go with --against REF');
  return {
    quick,
    only,
    ...(ref === undefined ? {} : { against: { ref, rounds: rounds ?? DEFAULT_ROUNDS, threshold: (threshold ?? DEFAULT_THRESHOLD_PERCENT) / 100 } }),
    ...(help ? { help: true as const } : {}),
  };
}

export interface RunBenchOptions extends Omit<SectionContext, 'quick'> {
  readonly args: BenchArgs;
  /** Sections to pick from; tests pass their own. */
  readonly sections?: Readonly<Record<string, (ctx: SectionContext) => Promise<SectionResult>>>;
}

/** Runs the chosen sections one after another; a failing section is reported, the rest still run. */
export async function runBench(options: RunBenchOptions): Promise<BenchReport> {
  const sections = options.sections ?? SECTIONS;
  const ctx: SectionContext = { ...options, quick: options.args.quick };
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const results: SectionResult[] = [];
  for (const name of options.args.only) {
    const section = sections[name];
    if (!section) continue;
    options.log(`== ${name}`);
    try {
      results.push(await section(ctx));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({ name, rows: [], notes: [], error: message.split('\n')[0] ?? message });
    }
  }
  return {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: os.availableParallelism(),
    quick: options.args.quick,
    startedAt,
    seconds: (performance.now() - started) / 1000,
    sections: results,
  };
}

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'tandem') return dir;
    } catch {
      // not here; keep walking up
    }
    if (path.dirname(dir) === dir) throw new Error('bench: cannot find the tandem package.json');
  }
}

/** `--against`: both builds' runs interleaved; a signal stops the run and still removes the worktree. */
async function mainAgainst(args: BenchArgs, against: AgainstArgs, packageRoot: string, cacheDir: string, log: (line: string) => void): Promise<number> {
  const controller = new AbortController();
  const stop = (signal: NodeJS.Signals): void => {
    log(`bench: ${signal}: stopping and cleaning up`);
    controller.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const { report, ab } = await runAgainstBench({
      against: against.ref, rounds: against.rounds, threshold: against.threshold, sections: args.only, quick: args.quick,
      packageRoot, cacheDir, cwd: process.cwd(), env: process.env, log, signal: controller.signal,
    });
    process.stdout.write(`${formatTable(report)}\n\n${formatAbTable(ab)}\n`);
    const files = [await writeReport(cacheDir, report), await writeReport(cacheDir, ab, 'bench-ab.json')];
    process.stdout.write(`\nwrote ${files.map((file) => path.relative(packageRoot, file)).join(', ')}\n`);
    return report.sections.some((s) => s.error !== undefined) || ab.sections.some((s) => s.beforeErrors.length > 0) ? 1 : 0;
  } catch (error) {
    if (controller.signal.aborted) return 130;
    if (!(error instanceof BaselineError)) throw error;
    log(`bench: ${error.message}`);
    return 2;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

async function main(): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof BenchUsageError)) throw error;
    process.stderr.write(`bench: ${error.message}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${benchHelp()}\n`);
    return 0;
  }
  const packageRoot = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));
  const cacheDir = path.join(packageRoot, '.bench-cache');
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  if (args.against) return mainAgainst(args, args.against, packageRoot, cacheDir, log);
  const report = await runBench({ args, packageRoot, cacheDir, pathEnv: process.env['PATH'] ?? '/usr/bin:/bin', log });
  process.stdout.write(`${formatTable(report)}\n`);
  const file = await writeReport(cacheDir, report);
  process.stdout.write(`\nwrote ${path.relative(packageRoot, file)}\n`);
  return report.sections.some((s) => s.error !== undefined) ? 1 : 0;
}

// The bench's composition root, like src/cli/main.ts: only here are process.* read.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main();
}
