// Before/after comparison of `npm run bench --against REF`: pairs the rows of two builds' section runs
// (several rounds each), takes medians, orients each ratio so that > 1 means worse, flags the rows worse
// by more than a threshold, and formats the table. Pure: the runs come in as section results.
import { formatNumber, median, type BenchRow, type SectionResult } from './measure.js';
import { tableLine, type Column } from './report.js';

/** Which way a figure gets worse; undefined when it has no better or worse (a count, a label). */
export type Direction = 'lower-is-better' | 'higher-is-better' | undefined;

/** Times, sizes, CPU shares and counts of costs go up when worse; rates, reuse and successes go down. */
export function directionOf(unit: string): Direction {
  if (/\/s$/.test(unit) || unit === '%' || /^of \d+$/.test(unit)) return 'higher-is-better';
  if (['ms', 's', 'MB', 'tokens', 'processes', '% of a core'].includes(unit)) return 'lower-is-better';
  return undefined;
}

/**
 * after / before when up is worse, before / after when down is worse: > 1 always means worse.
 * Undefined for rows without a direction and for negative figures (e.g. a difference of two RSS).
 */
export function orientedRatio(before: number, after: number, direction: Direction): number | undefined {
  if (direction === undefined || !Number.isFinite(before) || !Number.isFinite(after)) return undefined;
  const [worseWhenBig, base] = direction === 'lower-is-better' ? [after, before] : [before, after];
  if (worseWhenBig < 0 || base < 0) return undefined;
  if (worseWhenBig === base) return 1;
  return base === 0 ? Number.POSITIVE_INFINITY : worseWhenBig / base;
}

export type Verdict = 'worse' | 'worse?' | 'better' | 'better?' | 'within' | 'not judged' | 'new' | 'removed';

/**
 * `threshold` is a fraction (0.1 = 10 %): worse above 1 + t, better below 1 / (1 + t). `apart`: no
 * round of one build lies within the range of the other's rounds. Past the threshold with overlapping
 * rounds is only a suspicion (`worse?`): on a shared machine one slow round moves a median of two by
 * 20 %, and an A/A run (the same code on both sides) flagged six rows so.
 */
export function verdictOf(ratio: number | undefined, threshold: number, apart = true): Verdict {
  if (ratio === undefined) return 'not judged';
  if (ratio > 1 + threshold) return apart ? 'worse' : 'worse?';
  if (ratio < 1 / (1 + threshold)) return apart ? 'better' : 'better?';
  return 'within';
}

/** Whether the two builds' rounds do not overlap at all (one value each: whether they differ). */
export function roundsApart(before: readonly number[], after: readonly number[]): boolean {
  return Math.min(...after) > Math.max(...before) || Math.max(...after) < Math.min(...before);
}

/**
 * Metrics carry figures of their own ("(1600 files, 30.0 MB)", "85% of 1234"), some of which move
 * from run to run: rows whose text differs only in numbers are the same row.
 */
export function looseKey(row: Pick<BenchRow, 'metric' | 'unit'>): string {
  return `${row.metric.replace(/\d+(?:[.,]\d+)*/g, '#')}\u0000${row.unit.replace(/\d+/g, '#')}`;
}

const exactKey = (row: Pick<BenchRow, 'metric' | 'unit'>): string => `${row.metric}\u0000${row.unit}`;

/**
 * For each row of `later`, the index of its row in `earlier` (or -1): first the same text, then the
 * same text but for numbers, each row of `earlier` used once, in order.
 */
export function matchRows(earlier: readonly Pick<BenchRow, 'metric' | 'unit'>[], later: readonly Pick<BenchRow, 'metric' | 'unit'>[]): number[] {
  const taken = new Set<number>();
  const matches = later.map(() => -1);
  for (const key of [exactKey, looseKey]) {
    later.forEach((row, i) => {
      if (matches[i] !== -1) return;
      const found = earlier.findIndex((candidate, j) => !taken.has(j) && key(candidate) === key(row));
      if (found === -1) return;
      matches[i] = found;
      taken.add(found);
    });
  }
  return matches;
}

/** One row of one build, gathered over its rounds (a round that failed or lacked it adds nothing). */
export interface RowRounds {
  readonly metric: string;
  readonly unit: string;
  /** The row as each round measured it, in round order. */
  readonly rows: BenchRow[];
  /** For each of `rows`, the index of its round in the results gathered. */
  readonly rounds: number[];
}

/** The rows of one section over a build's rounds, in the order of their first appearance. */
export function gatherRounds(results: readonly SectionResult[]): RowRounds[] {
  const gathered: { metric: string; unit: string; rows: BenchRow[]; rounds: number[] }[] = [];
  results.forEach((result, round) => {
    if (result.error !== undefined) return;
    const matches = matchRows(gathered, result.rows);
    result.rows.forEach((row, i) => {
      const at = matches[i]!;
      if (at === -1) gathered.push({ metric: row.metric, unit: row.unit, rows: [row], rounds: [round] });
      else {
        gathered[at]!.rows.push(row);
        gathered[at]!.rounds.push(round);
        // The latest text names the row (its figures are the latest run's).
        gathered[at]!.metric = row.metric;
      }
    });
  });
  return gathered;
}

/**
 * The index of the round nearest the medians: the least sum over its rows of |ln(value / median)|
 * (rows with a figure <= 0 left out). A whole round, so a section's rows and their references stay
 * one run's, as in a plain bench run.
 */
export function typicalRound(results: readonly SectionResult[]): number | undefined {
  const scores = results.map((r) => (r.error === undefined ? 0 : Number.POSITIVE_INFINITY));
  for (const row of gatherRounds(results)) {
    const mid = median(row.rows.map((r) => r.value));
    row.rows.forEach((r, i) => {
      if (r.value > 0 && mid > 0) scores[row.rounds[i]!]! += Math.abs(Math.log(r.value / mid));
    });
  }
  const best = Math.min(...scores);
  return Number.isFinite(best) ? scores.indexOf(best) : undefined;
}

/** The usual section result of a build run several times: its typical round. */
export function mergeRounds(name: string, results: readonly SectionResult[]): SectionResult {
  const round = typicalRound(results);
  if (round === undefined) return { name, rows: [], notes: [], error: results.at(-1)?.error ?? 'not run' };
  return { ...results[round]!, name };
}

export interface AbRow {
  readonly metric: string;
  readonly unit: string;
  readonly direction: Direction;
  /** Every round's value, in round order; absent when the build has no such row. */
  readonly before?: number[];
  readonly after?: number[];
  readonly beforeMedian?: number;
  readonly afterMedian?: number;
  /** Oriented: > 1 means worse. */
  readonly ratio?: number;
  /** Largest spread among one build's rounds, (max - min) / median: how much the machine moved. */
  readonly spread?: number;
  readonly verdict: Verdict;
}

export interface AbSection {
  readonly name: string;
  readonly rows: AbRow[];
  /** Errors of the rounds that failed, per build. */
  readonly beforeErrors: string[];
  readonly afterErrors: string[];
}

function spreadOf(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mid = Math.abs(median(values));
  return mid === 0 ? 0 : (Math.max(...values) - Math.min(...values)) / mid;
}

/** Pairs one section's rows of the two builds and judges each. `threshold`: 0.1 for 10 %. */
export function compareSection(name: string, before: readonly SectionResult[], after: readonly SectionResult[], threshold: number): AbSection {
  const old = gatherRounds(before);
  const now = gatherRounds(after);
  const matches = matchRows(old, now);
  const rows: AbRow[] = now.map((row, i) => {
    const direction = directionOf(row.unit);
    const afterValues = row.rows.map((r) => r.value);
    const paired = matches[i] === -1 ? undefined : old[matches[i]!];
    if (paired === undefined) return { metric: row.metric, unit: row.unit, direction, after: afterValues, afterMedian: median(afterValues), verdict: 'new' };
    const beforeValues = paired.rows.map((r) => r.value);
    const [beforeMedian, afterMedian] = [median(beforeValues), median(afterValues)];
    const ratio = orientedRatio(beforeMedian, afterMedian, direction);
    return {
      metric: row.metric, unit: row.unit, direction, before: beforeValues, after: afterValues, beforeMedian, afterMedian,
      ...(ratio === undefined ? {} : { ratio }),
      spread: Math.max(spreadOf(beforeValues), spreadOf(afterValues)),
      verdict: verdictOf(ratio, threshold, roundsApart(beforeValues, afterValues)),
    };
  });
  const removed = old.filter((_, j) => !matches.includes(j)).map((row): AbRow => {
    const values = row.rows.map((r) => r.value);
    return { metric: row.metric, unit: row.unit, direction: directionOf(row.unit), before: values, beforeMedian: median(values), verdict: 'removed' };
  });
  const errors = (results: readonly SectionResult[]): string[] => results.flatMap((r) => (r.error === undefined ? [] : [r.error]));
  return { name, rows: [...rows, ...removed], beforeErrors: errors(before), afterErrors: errors(after) };
}

/** Which build a side of the comparison ran: a label (the revision asked for) and its commit. */
export interface BuildInfo {
  readonly label: string;
  readonly commit?: string;
  readonly root: string;
}

export interface AbReport {
  readonly before: BuildInfo;
  readonly after: BuildInfo;
  readonly rounds: number;
  /** A fraction: 0.1 flags rows worse by more than 10 %. */
  readonly threshold: number;
  readonly quick: boolean;
  readonly startedAt: string;
  readonly seconds: number;
  readonly sections: AbSection[];
}

const AB_COLUMNS: readonly Column[] = [
  { title: 'section', width: 9 },
  { title: 'metric', width: 64 },
  { title: 'before', width: 12, right: true },
  { title: 'after', width: 12, right: true },
  { title: 'ratio', width: 7, right: true },
  { title: 'spread', width: 6, right: true },
  { title: 'verdict', width: 16 },
];

const abLine = (values: readonly string[]): string => tableLine(AB_COLUMNS, values);

const percent = (fraction: number): string => `${Number((fraction * 100).toFixed(1))} %`;

const describe = (build: BuildInfo): string => (build.commit ? `${build.label} (${build.commit})` : build.label);

function verdictText(row: AbRow, threshold: number): string {
  if (row.verdict === 'worse') return `WORSE > ${percent(threshold)}`;
  if (row.verdict === 'worse?' || row.verdict === 'better?') return `${row.verdict} rounds overlap`;
  return row.verdict === 'within' ? '' : row.verdict;
}

function abCells(section: string, row: AbRow, threshold: number): string[] {
  const figure = (value: number | undefined): string => (value === undefined ? '' : `${formatNumber(value)} ${row.unit}`);
  const ratio = row.ratio === undefined ? '' : `${formatNumber(row.ratio)}x`;
  const spread = row.spread === undefined ? '' : `${Math.round(row.spread * 100)}%`;
  return [section, row.metric, figure(row.beforeMedian), figure(row.afterMedian), ratio, spread, verdictText(row, threshold)];
}

/** The rows of `verdict` (flagged: 'worse'), with their sections. */
export function worseRows(report: AbReport, verdict: Verdict = 'worse'): Array<{ section: string; row: AbRow }> {
  return report.sections.flatMap((s) => s.rows.filter((row) => row.verdict === verdict).map((row) => ({ section: s.name, row })));
}

function summary(report: AbReport): string[] {
  const past = `by more than ${percent(report.threshold)}`;
  const list = (rows: Array<{ section: string; row: AbRow }>): string => rows.map((w) => `${w.section}: ${w.row.metric}`).join('; ');
  const worse = worseRows(report);
  const unsure = worseRows(report, 'worse?');
  return [
    worse.length === 0 ? `no row worse ${past}` : `${worse.length} row${worse.length === 1 ? '' : 's'} worse ${past}: ${list(worse)}`,
    ...(unsure.length === 0 ? [] : [`${unsure.length} more past it with overlapping rounds (worse?): ${list(unsure)}`]),
  ];
}

export function formatAbTable(report: AbReport): string {
  const out = [
    `before/after${report.quick ? ' (quick)' : ''}: before = ${describe(report.before)}, after = ${describe(report.after)}; ` +
      `${report.rounds} round${report.rounds === 1 ? '' : 's'} each, interleaved per section; medians; ratio > 1 = worse`,
    abLine(AB_COLUMNS.map((c) => c.title)),
    abLine(AB_COLUMNS.map((c) => '-'.repeat(c.width))),
  ];
  for (const section of report.sections) {
    for (const [side, errors] of [['before', section.beforeErrors], ['after', section.afterErrors]] as const) {
      for (const error of new Set(errors)) out.push(abLine([section.name, `${side} FAILED: ${error}`]));
    }
    for (const row of section.rows) out.push(abLine(abCells(section.name, row, report.threshold)));
  }
  out.push('', ...summary(report));
  out.push(`WORSE: past the threshold, and every round of the new build worse than every round of the old; ` +
    `worse?: past the threshold, but the rounds overlap (noise until more rounds say otherwise)`);
  out.push('spread: the largest (max - min) / median among one build\'s rounds; rows without a ratio have no better or worse');
  return out.join('\n');
}
