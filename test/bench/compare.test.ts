// The before/after mode's pure parts: directions, oriented ratios, verdicts, pairing rows across rounds
// and builds, the middle round of the usual table, the table itself, and the --against arguments.
import { describe, expect, it } from 'vitest';
import {
  compareSection, directionOf, formatAbTable, gatherRounds, matchRows, mergeRounds, orientedRatio, roundsApart, typicalRound, verdictOf, worseRows,
  type AbReport,
} from '../../bench/compare.js';
import type { BenchRow, SectionResult } from '../../bench/measure.js';
import { BenchUsageError, SECTIONS, benchHelp, parseBenchArgs } from '../../bench/run.js';

const row = (metric: string, value: number, unit = 'ms', extra: Partial<BenchRow> = {}): BenchRow => ({ metric, value, unit, ...extra });
const section = (rows: BenchRow[], name = 'demo'): SectionResult => ({ name, rows, notes: [`${name} note`] });
const failedRun = (error: string): SectionResult => ({ name: 'demo', rows: [], notes: [], error });

describe('directions', () => {
  it('knows which way each unit of the table gets worse', () => {
    for (const unit of ['ms', 'MB', 'tokens', 'processes', '% of a core']) expect(directionOf(unit), unit).toBe('lower-is-better');
    for (const unit of ['MB/s', 'blocks/s', '%', 'of 6']) expect(directionOf(unit), unit).toBe('higher-is-better');
    for (const unit of ['requests', 'spans', 'files']) expect(directionOf(unit), unit).toBeUndefined();
  });

  it('orients ratios so that above 1 is worse', () => {
    expect(orientedRatio(100, 120, 'lower-is-better')).toBeCloseTo(1.2);
    expect(orientedRatio(120, 100, 'lower-is-better')).toBeCloseTo(100 / 120);
    expect(orientedRatio(10, 8, 'higher-is-better')).toBeCloseTo(1.25);
    expect(orientedRatio(90, 95, 'higher-is-better')).toBeCloseTo(90 / 95);
    expect(orientedRatio(4, 4, 'lower-is-better')).toBe(1);
    expect(orientedRatio(0, 0, 'lower-is-better')).toBe(1);
    expect(orientedRatio(0, 3, 'lower-is-better')).toBe(Number.POSITIVE_INFINITY);
    expect(orientedRatio(6, 0, 'higher-is-better')).toBe(Number.POSITIVE_INFINITY);
    expect(orientedRatio(-5, 10, 'lower-is-better')).toBeUndefined();
    expect(orientedRatio(5, Number.NaN, 'lower-is-better')).toBeUndefined();
    expect(orientedRatio(5, 10, undefined)).toBeUndefined();
  });

  it('flags past the threshold either way, only a suspicion when the rounds overlap', () => {
    expect(verdictOf(1.11, 0.1, false)).toBe('worse?');
    expect(verdictOf(0.5, 0.1, false)).toBe('better?');
    expect(verdictOf(1.05, 0.1, false)).toBe('within');
    expect(roundsApart([100, 110], [120, 125])).toBe(true);
    expect(roundsApart([100, 110], [90, 95])).toBe(true);
    expect(roundsApart([100, 130], [120, 125])).toBe(false);
    expect(roundsApart([100, 110], [110, 125])).toBe(false);
    expect(roundsApart([100], [101])).toBe(true);
    expect(verdictOf(1.11, 0.1)).toBe('worse');
    expect(verdictOf(1.1, 0.1)).toBe('within');
    expect(verdictOf(0.95, 0.1)).toBe('within');
    expect(verdictOf(0.9, 0.1)).toBe('better');
    expect(verdictOf(1.04, 0.03)).toBe('worse');
    expect(verdictOf(undefined, 0.1)).toBe('not judged');
  });
});

describe('pairing rows', () => {
  it('pairs the same text first, then the same text but for numbers, each row once and in order', () => {
    const earlier = [row('tree (100 files, 2.0 MB): cold', 1), row('tree (100 files, 2.0 MB): warm', 1), row('idle: RSS (120 vs 100 MB)', 1, 'MB'), row('gone', 1)];
    const later = [row('tree (101 files, 2.0 MB): warm', 2), row('idle: RSS (130 vs 90 MB)', 2, 'MB'), row('tree (101 files, 2.0 MB): cold', 2), row('fresh', 2)];
    expect(matchRows(earlier, later)).toEqual([1, 2, 0, -1]);
  });

  it('keeps two rows that differ only in numbers apart, in their order, and an exact twin before a loose one', () => {
    const earlier = [row('run 1', 1), row('run 2', 1)];
    expect(matchRows(earlier, [row('run 2', 2), row('run 7', 2)])).toEqual([1, 0]);
    expect(matchRows(earlier, [row('run 8', 2), row('run 9', 2)])).toEqual([0, 1]);
    expect(matchRows([row('a', 1, 'ms')], [row('a', 1, 's')])).toEqual([-1]);
  });

  it('gathers a build\'s rounds, skipping failed ones, named by the latest text', () => {
    const gathered = gatherRounds([
      section([row('a', 10), row('b (1 of 2)', 5, 'requests')]),
      failedRun('boom'),
      section([row('a', 12), row('b (2 of 2)', 6, 'requests'), row('c', 1)]),
    ]);
    expect(gathered.map((g) => [g.metric, g.rows.map((r) => r.value), g.rounds])).toEqual([['a', [10, 12], [0, 2]], ['b (2 of 2)', [5, 6], [0, 2]], ['c', [1], [2]]]);
  });
});

describe('the usual table from several rounds', () => {
  it('takes the whole round nearest the medians, so a section\'s rows stay one run\'s', () => {
    const rounds = [
      section([row('node', 100), row('tandem', 300, 'ms', { reference: { label: 'node', value: 100 }, ratio: 3 })]),
      section([row('node', 140), row('tandem', 330, 'ms', { reference: { label: 'node', value: 140 }, ratio: 2.36 })]),
      section([row('node', 120), row('tandem', 310, 'ms', { reference: { label: 'node', value: 120 }, ratio: 2.58 })]),
    ];
    expect(typicalRound(rounds)).toBe(2);
    expect(typicalRound([failedRun('x'), rounds[0]!])).toBe(1);
    expect(typicalRound([failedRun('x')])).toBeUndefined();
    // Figures of 0 or below (a difference of two RSS) leave the choice to the other rows.
    expect(typicalRound([section([row('d', -5), row('t', 10)]), section([row('d', 50), row('t', 11)]), section([row('d', 0), row('t', 20)])])).toBe(1);
  });

  it('merges rounds into that round\'s section result, notes and details included', () => {
    const merged = mergeRounds('demo', [
      { ...section([row('a', 10), row('b', 50, 'MB/s')]), details: { round: 1 } },
      { ...section([row('a', 30), row('b', 40, 'MB/s')]), details: { round: 2 } },
      { ...section([row('a', 20), row('b', 45, 'MB/s')]), details: { round: 3 } },
      failedRun('late failure'),
    ]);
    expect(merged.rows.map((r) => r.value)).toEqual([20, 45]);
    expect(merged.details).toEqual({ round: 3 });
    expect(merged.error).toBeUndefined();
    expect(mergeRounds('demo', [failedRun('first'), failedRun('second')])).toMatchObject({ rows: [], error: 'second' });
  });
});

describe('before and after', () => {
  const before = [section([row('time', 100), row('rate', 50, 'MB/s'), row('count', 3, 'requests'), row('noisy', 100), row('old row', 1)]),
    section([row('time', 110), row('rate', 40, 'MB/s'), row('count', 3, 'requests'), row('noisy', 200), row('old row', 1)])];
  const after = [section([row('time', 125), row('rate', 51, 'MB/s'), row('count', 4, 'requests'), row('noisy', 190), row('new row', 2)]),
    section([row('time', 129), row('rate', 51, 'MB/s'), row('count', 4, 'requests'), row('noisy', 250), row('new row', 2)])];
  const compared = compareSection('demo', before, after, 0.1);
  const byMetric = Object.fromEntries(compared.rows.map((r) => [r.metric, r]));

  it('compares medians, oriented, and flags what got worse past the threshold', () => {
    expect(byMetric['time']).toMatchObject({ before: [100, 110], after: [125, 129], beforeMedian: 105, afterMedian: 127, verdict: 'worse' });
    expect(byMetric['time']!.ratio).toBeCloseTo(127 / 105);
    expect(byMetric['time']!.spread).toBeCloseTo(10 / 105);
    expect(byMetric['rate']).toMatchObject({ beforeMedian: 45, afterMedian: 51, verdict: 'better' });
    expect(byMetric['rate']!.ratio).toBeCloseTo(45 / 51);
    expect(byMetric['noisy']).toMatchObject({ beforeMedian: 150, afterMedian: 220, verdict: 'worse?' });
    expect(byMetric['count']).toMatchObject({ verdict: 'not judged', direction: undefined });
    expect(byMetric['count']!.ratio).toBeUndefined();
  });

  it('lists rows of one build only as new or removed, removed ones last', () => {
    expect(byMetric['new row']).toMatchObject({ verdict: 'new', afterMedian: 2 });
    expect(byMetric['new row']!.before).toBeUndefined();
    expect(byMetric['old row']).toMatchObject({ verdict: 'removed', beforeMedian: 1 });
    expect(compared.rows.at(-1)!.metric).toBe('old row');
  });

  it('keeps the errors of failed runs per build, judging the rounds that ran', () => {
    const partly = compareSection('demo', [failedRun('no ctags'), before[0]!], [after[0]!], 0.1);
    expect(partly.beforeErrors).toEqual(['no ctags']);
    expect(partly.afterErrors).toEqual([]);
    expect(partly.rows.find((r) => r.metric === 'time')).toMatchObject({ beforeMedian: 100, afterMedian: 125, verdict: 'worse' });
    const missing = compareSection('demo', [failedRun('no such section in this build')], after, 0.1);
    expect(missing.rows.every((r) => r.verdict === 'new')).toBe(true);
  });

  it('prints a table with the builds, the ratios, the flags and a summary', () => {
    const report: AbReport = {
      before: { label: 'main', commit: 'abc1234', root: '/tmp/x' }, after: { label: 'this checkout', commit: 'def5678', root: '/repo' },
      rounds: 2, threshold: 0.1, quick: false, startedAt: '', seconds: 1,
      sections: [compared, compareSection('broken', [failedRun('exploded')], [], 0.1)],
    };
    const table = formatAbTable(report);
    expect(table).toContain('before = main (abc1234), after = this checkout (def5678); 2 rounds each');
    expect(table).toMatch(/demo\s+time\s+105 ms\s+127 ms\s+1\.21x\s+10%\s+WORSE > 10 %/);
    expect(table).toMatch(/demo\s+rate\s+45\.0 MB\/s\s+51\.0 MB\/s\s+0\.88x\s+22%\s+better/);
    expect(table).toMatch(/demo\s+new row\s+2\.00 ms\s+new/);
    expect(table).toMatch(/demo\s+old row\s+1\.00 ms\s+removed/);
    expect(table).toContain('broken     before FAILED: exploded');
    expect(table).toMatch(/demo\s+noisy\s+150 ms\s+220 ms\s+1\.47x\s+67%\s+worse\? rounds overlap/);
    expect(table).toContain('1 row worse by more than 10 %: demo: time\n1 more past it with overlapping rounds (worse?): demo: noisy');
    expect(worseRows(report).map((w) => w.row.metric)).toEqual(['time']);
    expect(worseRows(report, 'worse?').map((w) => w.row.metric)).toEqual(['noisy']);
    expect(formatAbTable({ ...report, sections: [] })).toContain('no row worse by more than 10 %');
  });
});

describe('--against arguments', () => {
  it('reads the revision, rounds and threshold (a percentage), with defaults', () => {
    expect(parseBenchArgs(['--only', 'startup', '--against', 'main'])).toEqual({ quick: false, only: ['startup'], against: { ref: 'main', rounds: 2, threshold: 0.1 } });
    expect(parseBenchArgs(['--against=../base', '--rounds=3', '--threshold', '5', '--quick']))
      .toEqual({ quick: true, only: Object.keys(SECTIONS), against: { ref: '../base', rounds: 3, threshold: 0.05 } });
    expect(parseBenchArgs(['--help'])).toMatchObject({ help: true });
    expect(parseBenchArgs(['-h']).help).toBe(true);
  });

  it('refuses what it cannot use', () => {
    expect(() => parseBenchArgs(['--rounds', '3'])).toThrow(/go with --against/);
    expect(() => parseBenchArgs(['--against'])).toThrow(/--against needs/);
    expect(() => parseBenchArgs(['--against', 'main', '--rounds', '0'])).toThrow(BenchUsageError);
    expect(() => parseBenchArgs(['--against', 'main', '--rounds', '1.5'])).toThrow(/whole number/);
    expect(() => parseBenchArgs(['--against', 'main', '--threshold', 'lots'])).toThrow(/percentage/);
    expect(() => parseBenchArgs(['--against', 'main', '--rounds='])).toThrow(/needs/);
    expect(() => parseBenchArgs(['--against', 'main', '--roundz', '2'])).toThrow(/unknown option --roundz/);
  });

  it('documents the mode in the help', () => {
    const help = benchHelp();
    expect(help).toContain('--against REF');
    expect(help).toContain('bench-ab.json');
    for (const name of Object.keys(SECTIONS)) expect(help).toContain(name);
  });
});
