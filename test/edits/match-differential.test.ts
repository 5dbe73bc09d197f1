// Differential test: the indexed matcher, fed one LineView kept in step with every applied block,
// must give exactly the results of the old scan-everything ladder (match-reference.ts) wherever that
// ladder found something. The late rungs (tabs, normalization, inner whitespace) decide only when the
// old ladder found nothing, each only when the late rungs before it found nothing too, and inner
// whitespace only for a unique place. The one other difference: candidates that all give the same
// file (a line repeated back to back) are a match at the first of them, not an ambiguity.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestWindow } from '../../src/edits/failure-message.js';
import { lateRungCounts, matchBlock, type MatchResult, type RungName } from '../../src/edits/match.js';
import { LineView, isElisionLine } from '../../src/edits/match-lines.js';
import { referenceClosestWindow, referenceMatchBlock } from './match-reference.js';

// Few distinct lines, so blocks are often ambiguous, and variants that only the fallback rungs equate.
const POOL = [
  'a()',
  '  a()',
  '    a()',
  'a()  ',
  '\ta()',
  'b = 1',
  '  b = 1',
  'return x',
  '}',
  '',
  '   ',
  'say("hi")',
  'say(\u201Chi\u201D)',
  'x \u2013 y',
  'x - y',
  '...',
  '  # ... existing code ...',
  'if x:',
  '    pass',
  '\tpass',
  '\t\tb = 1',
  'b  =  1',
  'caf\u00e9()',
  'cafe\u0301()',
];

type Mutation = (lines: string[]) => string[];
const MUTATIONS: Mutation[] = [
  (l) => l,
  (l) => l.map((x) => `  ${x}`),
  (l) => l.map((x) => x.replace(/^[ \t]+/, '')),
  (l) => l.map((x) => x.trimEnd()),
  (l) => ['', ...l, ''],
  (l) => (l.length > 2 ? [l[0] ?? '', '...', l[l.length - 1] ?? ''] : l),
  (l) => l.map((x) => x.replace(/"([^"]*)"/g, '\u201C$1\u201D').replace(/\u201C|\u201D/g, '"')),
  (l) => l.map((x) => x.replace('-', '\u2014')),
  (l) => [...l.slice(1), 'zz'],
  (l) => l.map((x) => x.replace(/^\t+/, (t) => '    '.repeat(t.length))),
  (l) => l.map((x) => x.replace(/^(?: {2})+/, (t) => '\t'.repeat(t.length / 2))),
  (l) => l.map((x) => x.replace(/(\S) +/g, '$1 ').replace(/ = /g, '  =  ')),
  (l) => l.map((x) => x.normalize('NFD')),
  (l) => l.map((x) => x.normalize('NFC')),
];

const LATE: readonly RungName[] = ['tabs', 'normalization', 'inner_whitespace'];
const lateHits: Record<string, number> = { tabs: 0, normalization: 0, inner_whitespace: 0, sameOutcome: 0 };

/** The new ladder against the old one, as the header says. */
function compare(mine: MatchResult, theirs: MatchResult, file: readonly string[], search: readonly string[]): void {
  if (theirs.kind === 'found') {
    expect(mine).toEqual(theirs);
    return;
  }
  if (theirs.kind === 'ambiguous') {
    if (mine.kind === 'found') {
      lateHits['sameOutcome']!++;
      expect({ rung: mine.rung, line: mine.start + 1 }).toEqual({ rung: theirs.rung, line: theirs.candidates[0] });
    } else expect(mine).toEqual(theirs);
    return;
  }
  const counts = lateRungCounts(file, search);
  if (mine.kind === 'none') {
    expect(mine).toEqual(theirs);
    // An elided SEARCH ends the ladder at the elision rung.
    if (!search.some(isElisionLine)) expect([counts.tabs, counts.normalization, counts.inner_whitespace === 1 ? 1 : 0]).toEqual([0, 0, 0]);
    return;
  }
  expect(LATE).toContain(mine.rung);
  lateHits[mine.rung]!++;
  const before = LATE.slice(0, LATE.indexOf(mine.rung));
  for (const rung of before) expect(counts[rung as keyof typeof counts], `${rung} before ${mine.rung}`).toBe(0);
  if (mine.rung === 'inner_whitespace') expect(counts.inner_whitespace).toBe(1);
}

interface Step {
  readonly at: number;
  readonly len: number;
  readonly mutation: number;
  readonly replace: string[];
  readonly useAfter: boolean;
}

const line = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...POOL) }, fc.nat(40).map((n) => `u${n}`));
const step: fc.Arbitrary<Step> = fc.record({
  at: fc.nat(10_000),
  len: fc.integer({ min: 1, max: 6 }),
  mutation: fc.nat(MUTATIONS.length - 1),
  replace: fc.array(line, { maxLength: 5 }),
  useAfter: fc.boolean(),
});

/** Runs the steps against both matchers; returns how many blocks applied. */
function runSteps(file: readonly string[], steps: readonly Step[], checkWindows: boolean): number {
  const view = new LineView(file);
  const plain = [...file];
  let after: number | null = null;
  let applied = 0;
  for (const s of steps) {
    const at = plain.length === 0 ? 0 : s.at % plain.length;
    const search = (MUTATIONS[s.mutation] as Mutation)(plain.slice(at, at + s.len));
    // Keep `...` counts equal on both sides so elision blocks can apply.
    const replace = search.some((x) => x.includes('...')) ? search.map((x, i) => (i === 0 ? `${x};` : x)) : s.replace;
    const mine = matchBlock(view, search, replace, s.useAfter ? after : null);
    const theirs = referenceMatchBlock(plain, search, replace, s.useAfter ? after : null);
    compare(mine, theirs, plain, search);
    if (checkWindows) expect(closestWindow(view, search)).toEqual(referenceClosestWindow(plain, search));
    if (mine.kind !== 'found') continue;
    view.splice(mine.start, mine.end - mine.start, mine.replacement);
    plain.splice(mine.start, mine.end - mine.start, ...mine.replacement);
    after = mine.start + mine.replacement.length;
    applied++;
    expect(view.lines).toEqual(plain);
  }
  return applied;
}

describe('indexed matching equals the reference ladder', () => {
  it('on random files and block sequences', () => {
    let applied = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.array(step, { maxLength: 40 }), (file, steps) => {
        applied += runSteps(file, steps, true);
      }),
      { numRuns: 400, seed: 424242 },
    );
    // The generator must reach the splice path often, or the in-step bookkeeping goes untested.
    expect(applied).toBeGreaterThan(1000);
    // And every late rung must have decided some blocks, or its ordering went untested.
    for (const key of Object.keys(lateHits)) expect(lateHits[key], key).toBeGreaterThan(0);
  });

  it('over hundreds of splices that change line counts (index rebuilds included)', () => {
    const file = Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? POOL[i % POOL.length] ?? '' : `line ${i}`));
    const steps = fc.sample(step.map((s) => ({ ...s, replace: [...s.replace, ...s.replace, ...s.replace] })), { numRuns: 700, seed: 7 });
    expect(runSteps(file, steps, false)).toBeGreaterThan(300);
  });
});
