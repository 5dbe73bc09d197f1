// --compare RUN_A RUN_B: what changed per exercise between two runs (passed, failed, tries, malformed).
import type { ExerciseResult } from './run-exercise.js';
import { percent } from './summary.js';

export interface ExerciseChange {
  readonly name: string;
  readonly before: string;
  readonly after: string;
  /** 'better', 'worse', 'same', or 'only-a' / 'only-b' when one run lacks the exercise. */
  readonly verdict: 'better' | 'worse' | 'same' | 'only-a' | 'only-b';
}

export interface RunComparison {
  readonly changes: ExerciseChange[];
  readonly passedA: number;
  readonly passedB: number;
  readonly common: number;
}

/** Lower is better: passing on try 1 beats try 2, which beats failing. */
function rank(result: ExerciseResult): number {
  return result.passedOnTry ?? Number.MAX_SAFE_INTEGER;
}

function outcomeLabel(result: ExerciseResult | undefined): string {
  if (!result) return '-';
  const malformed = result.tries.flatMap((t) => t.replies).filter((r) => !r.wellFormed).length;
  const base = result.passed ? `pass (try ${result.passedOnTry})` : 'fail';
  return malformed > 0 ? `${base}, ${malformed} malformed` : base;
}

export function compareResults(a: readonly ExerciseResult[], b: readonly ExerciseResult[]): RunComparison {
  const byA = new Map(a.map((r) => [r.name, r]));
  const byB = new Map(b.map((r) => [r.name, r]));
  const names = [...new Set([...byA.keys(), ...byB.keys()])].sort();
  const changes = names.map((name): ExerciseChange => {
    const ra = byA.get(name);
    const rb = byB.get(name);
    const before = outcomeLabel(ra);
    const after = outcomeLabel(rb);
    if (!ra) return { name, before, after, verdict: 'only-b' };
    if (!rb) return { name, before, after, verdict: 'only-a' };
    const verdict = rank(rb) < rank(ra) ? 'better' : rank(rb) > rank(ra) ? 'worse' : 'same';
    return { name, before, after, verdict };
  });
  const common = names.filter((n) => byA.has(n) && byB.has(n));
  return {
    changes,
    passedA: common.filter((n) => byA.get(n)?.passed).length,
    passedB: common.filter((n) => byB.get(n)?.passed).length,
    common: common.length,
  };
}

/** Lists only the exercises whose outcome changed, then the pass rates on the exercises both ran. */
export function renderComparison(idA: string, idB: string, comparison: RunComparison): string {
  const changed = comparison.changes.filter((c) => c.before !== c.after);
  const width = Math.max(8, ...changed.map((c) => c.name.length));
  const lines = [`compare A=${idA}`, `        B=${idB}`];
  if (changed.length === 0) lines.push('  no exercise changed');
  for (const c of changed) lines.push(`  ${c.name.padEnd(width)}  ${c.verdict.padEnd(6)}  ${c.before}  ->  ${c.after}`);
  const { passedA, passedB, common } = comparison;
  lines.push(`  passed: A ${passedA}/${common} (${percent(passedA, common)})  B ${passedB}/${common} (${percent(passedB, common)})`);
  const counts = (['better', 'worse'] as const).map((v) => `${comparison.changes.filter((c) => c.verdict === v).length} ${v}`);
  lines.push(`  ${counts.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
