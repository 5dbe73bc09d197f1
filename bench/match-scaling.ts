// How the matching ladder's cost grows, as ratios of two timings made side by side (these were timed
// tests; on a shared 2-core machine a timing decides nothing, so they are bench rows now): 50 lookups in
// a 20k-line file against a 2k-line one (a linear scan costs about 10x, a quadratic one about 100x),
// re-indented blocks against exact ones, and failing blocks (each looks for its closest lines) against
// exact ones.
import { performance } from 'node:perf_hooks';
import { matchBlock } from '../src/edits/match.js';
import { planEdits } from '../src/edits/plan.js';
import type { Edit, FileSnapshot } from '../src/edits/types.js';
import { ratioRow, type BenchRow } from './measure.js';

const PATH = 'big.py';

function numberedLines(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `line ${i}`);
}

function codeLines(n: number): string[] {
  return Array.from({ length: n }, (_, i) => (i % 8 === 0 ? `def f_${i}(v):` : `    t_${i} = run(v, ${i}, "p-${(i * 7919) % 1000}")`));
}

/** One 8-line block every `every` chunks, shaped by `shape` (the replacement renames a call). */
function blocks(file: readonly string[], every: number, shape: (lines: string[]) => string[]): Edit[] {
  const edits: Edit[] = [];
  for (let at = 0; at + 8 <= file.length; at += 8 * every) {
    const lines = file.slice(at, at + 8);
    const search = `${shape(lines).join('\n')}\n`;
    const replace = `${shape(lines.map((l) => l.replace('run(', 'walk('))).join('\n')}\n`;
    edits.push({ kind: 'replace', path: PATH, search, replace, index: edits.length, source: search });
  }
  return edits;
}

function timePlan(file: readonly string[], edits: Edit[]): number {
  const snap: FileSnapshot = { path: PATH, text: `${file.join('\n')}\n`, eol: '\n', bom: false, finalNewline: true };
  const t0 = performance.now();
  planEdits(edits, new Map([[PATH, snap]]), { chatFiles: [PATH] });
  return performance.now() - t0;
}

function timeLookups(n: number): number {
  const lines = numberedLines(n);
  const step = Math.floor(n / 50);
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) matchBlock(lines, [`line ${i * step}`, `line ${i * step + 1}`], ['x']);
  return performance.now() - t0;
}

/** Each side's fastest of `runs`, the sides taking turns, so a passing load weighs on both alike. */
function fastest(runs: number, a: () => number, b: () => number): [number, number] {
  let best: [number, number] = [Infinity, Infinity];
  for (let i = 0; i < runs; i++) best = [Math.min(best[0], a()), Math.min(best[1], b())];
  return best;
}

export function matchScalingRows(quick: boolean): BenchRow[] {
  const runs = quick ? 1 : 5;
  const big = quick ? 2_000 : 20_000;
  const [small, large] = fastest(runs, () => timeLookups(big / 10), () => timeLookups(big));
  const file = codeLines(big);
  timePlan(file.slice(0, 800), blocks(file.slice(0, 800), 1, (l) => l)); // warm the JIT
  const exact = blocks(file, 1, (l) => l);
  const [exactMs, shiftedMs] = fastest(runs, () => timePlan(file, exact), () => timePlan(file, blocks(file, 1, (l) => l.map((x) => `    ${x}`))));
  const failing = blocks(file, 60, (l) => l.map((x) => x.replace('run(', 'rnu('))).slice(0, 40);
  const [, failingMs] = fastest(runs, () => timePlan(file, exact), () => timePlan(file, failing));
  return [
    ratioRow(`matching: 50 lookups in a ${big.toLocaleString('en-US')}-line file (linear ~10x, quadratic ~100x; target < 60x)`, large, 'ms', { label: `${(big / 10).toLocaleString('en-US')} lines`, value: small }),
    ratioRow(`matching: ${exact.length} re-indented blocks (target < 6x)`, shiftedMs, 'ms', { label: 'exact blocks', value: exactMs }),
    ratioRow(`matching: 40 blocks that match nothing (target < 10x)`, failingMs, 'ms', { label: `${exact.length} exact blocks`, value: exactMs }),
  ];
}
