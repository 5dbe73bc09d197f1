// `npm run bench`: runs the benchmark sections in order, prints one table and writes
// .bench-cache/bench.json. Options: --quick (fewer runs, smaller trees), --only NAME,...
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCacheBench } from './cache.js';
import { runChatOverheadBench } from './chat-overhead.js';
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

export interface BenchArgs {
  readonly quick: boolean;
  readonly only: readonly string[];
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let quick = false;
  let only = Object.keys(SECTIONS);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      if (!value) throw new BenchUsageError('--only needs a comma-separated list of sections');
      only = value.split(',').map((name) => name.trim()).filter(Boolean);
      const unknown = only.filter((name) => !(name in SECTIONS));
      if (unknown.length > 0) throw new BenchUsageError(`unknown section ${unknown.join(', ')}; sections: ${Object.keys(SECTIONS).join(', ')}`);
    } else throw new BenchUsageError(`unknown option ${arg}; usage: bench [--quick] [--only ${Object.keys(SECTIONS).join(',')}]`);
  }
  return { quick, only };
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

async function main(): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof BenchUsageError)) throw error;
    process.stderr.write(`bench: ${error.message}\n`);
    return 2;
  }
  const packageRoot = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));
  const cacheDir = path.join(packageRoot, '.bench-cache');
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
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
