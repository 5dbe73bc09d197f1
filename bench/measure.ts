// Shared measuring tools for the benchmark sections: medians, timed child processes (with the child's
// own peak RSS reported by a preloaded probe), and the row type every section reports.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** One figure of the table. `reference` runs in the same run, so `ratio` is value / reference. */
export interface BenchRow {
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  readonly reference?: { readonly label: string; readonly value: number };
  readonly ratio?: number;
  /** Human-readable target, e.g. "< 200 ms". */
  readonly target?: string;
  /** false when the figure misses its target; absent when there is no target. */
  readonly ok?: boolean;
}

export interface SectionResult {
  readonly name: string;
  readonly rows: BenchRow[];
  readonly notes: string[];
  /** Raw data of the section (e.g. the repo-map report), kept in the JSON. */
  readonly details?: unknown;
  /** Set when the section failed; its rows may then be empty. */
  readonly error?: string;
}

/** What every section receives: where tandem lives, where to cache, how hard to try. */
export interface SectionContext {
  /** The tandem package folder (holds dist/, prompts/, queries/). */
  readonly packageRoot: string;
  /** Ignored folder for generated trees and fetched corpora. */
  readonly cacheDir: string;
  readonly quick: boolean;
  /** PATH for child processes (the bench never inherits the caller's environment otherwise). */
  readonly pathEnv: string;
  readonly log: (line: string) => void;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function ratioRow(metric: string, value: number, unit: string, reference: { label: string; value: number }, extra: Partial<BenchRow> = {}): BenchRow {
  return { metric, value, unit, reference, ratio: value / reference.value, ...extra };
}

export interface ChildRun {
  readonly code: number | null;
  readonly ms: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The child's own peak resident set size in MB (NaN when the probe did not report). */
  readonly peakRssMb: number;
  /** The child's own CPU time (user + system) in ms, from the same probe (NaN without it). */
  readonly cpuMs: number;
}

export interface ChildOptions {
  readonly cwd?: string;
  /** The child's whole environment (nothing is inherited). */
  readonly env: Record<string, string>;
  /** The compiled RSS probe to preload (node children only). */
  readonly rssProbe?: string;
}

/** Where the built tree keeps a file: the CLI (package.json's `bin`, as a user runs it) and the RSS probe. */
export function builtPaths(packageRoot: string): { cli: string; rssProbe: string } {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { bin: { tandem: string } };
  return {
    cli: path.join(packageRoot, pkg.bin.tandem),
    rssProbe: path.join(packageRoot, 'dist', 'bench', 'rss-probe.js'),
  };
}

/** Runs `node args...` and measures its wall time from spawn to exit. */
export function runNode(args: readonly string[], options: ChildOptions): Promise<ChildRun> {
  const probe = options.rssProbe ? ['--import', pathToFileURL(options.rssProbe).href] : [];
  return runTimed(process.execPath, [...probe, ...args], options);
}

export function runTimed(command: string, args: readonly string[], options: ChildOptions): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // fd 3 is the probe's channel, so the child's stdout/stderr stay untouched.
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let probe = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const channel = child.stdio[3] as NodeJS.ReadableStream | null;
    channel?.setEncoding('utf8');
    channel?.on('data', (chunk: string) => (probe += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      const kb = Number(/maxrss=(\d+)/.exec(probe)?.[1] ?? Number.NaN);
      const cpuMs = Number(/cpu=([\d.]+)/.exec(probe)?.[1] ?? Number.NaN);
      resolve({ code, ms, stdout, stderr, peakRssMb: kb / 1024, cpuMs });
    });
  });
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '-';
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}
