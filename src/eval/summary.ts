// The numbers of a run: pass rate after each try, well-formed replies, reflections, syntax errors,
// tokens, cost and time; and the table printed at the end.
import type { ExerciseResult } from './run-exercise.js';

export interface EvalSummary {
  readonly exercises: number;
  /** passedByTry[i]: exercises solved within i + 1 tries. */
  readonly passedByTry: number[];
  readonly replies: number;
  readonly wellFormed: number;
  readonly wellFormedPercent: number;
  readonly malformed: number;
  readonly reflections: number;
  readonly syntaxErrors: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly cost: number | null;
  readonly secondsPerExercise: number;
  readonly tandemErrors: number;
}

export function summarize(results: readonly ExerciseResult[], tries: number): EvalSummary {
  const allTries = results.flatMap((r) => r.tries);
  const replies = allTries.flatMap((t) => t.replies);
  const wellFormed = replies.filter((r) => r.wellFormed).length;
  const costs = allTries.map((t) => t.cost).filter((c): c is number => c !== null);
  const passedByTry = Array.from({ length: tries }, (_, i) => results.filter((r) => r.passedOnTry !== null && r.passedOnTry <= i + 1).length);
  return {
    exercises: results.length,
    passedByTry,
    replies: replies.length,
    wellFormed,
    wellFormedPercent: replies.length === 0 ? 0 : (100 * wellFormed) / replies.length,
    malformed: replies.length - wellFormed,
    reflections: sum(allTries.map((t) => t.reflections)),
    syntaxErrors: sum(allTries.map((t) => t.syntaxErrors)),
    promptTokens: sum(allTries.map((t) => t.promptTokens)),
    completionTokens: sum(allTries.map((t) => t.completionTokens)),
    cost: costs.length === 0 ? null : sum(costs),
    secondsPerExercise: results.length === 0 ? 0 : sum(results.map((r) => r.seconds)) / results.length,
    tandemErrors: allTries.filter((t) => t.exitCode !== 0 && t.exitCode !== 3).length,
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
}

export function renderSummary(runId: string, info: { model: string | null; editFormat: string | null }, s: EvalSummary): string {
  const rows: Array<[string, string]> = [];
  s.passedByTry.forEach((passed, i) => rows.push([`passed after try ${i + 1}`, `${passed}/${s.exercises}  ${percent(passed, s.exercises)}`]));
  rows.push(
    ['well-formed replies', `${s.wellFormed}/${s.replies}  ${percent(s.wellFormed, s.replies)}`],
    ['malformed replies', String(s.malformed)],
    ['reflections used', String(s.reflections)],
    ['syntax errors', String(s.syntaxErrors)],
    ['tokens in / out', `${s.promptTokens} / ${s.completionTokens}`],
    ['cost', s.cost === null ? 'unknown (no prices for this model; see --prices)' : `$${s.cost.toFixed(4)}`],
    ['seconds per exercise', s.secondsPerExercise.toFixed(1)],
  );
  if (s.tandemErrors > 0) rows.push(['tandem runs that failed', String(s.tandemErrors)]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const header = `run ${runId}  (model ${info.model ?? 'default'}, edit format ${info.editFormat ?? 'default'})`;
  return [header, ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`), ''].join('\n');
}

/** One line per exercise: result, tries, replies, malformed replies, seconds. */
export function renderExerciseTable(results: readonly ExerciseResult[]): string {
  const rows = results.map((r) => {
    const replies = r.tries.flatMap((t) => t.replies);
    const malformed = replies.filter((x) => !x.wellFormed).length;
    const outcome = r.passed ? `pass (try ${r.passedOnTry})` : 'fail';
    return [r.name, outcome, String(r.tries.length), String(replies.length), String(malformed), r.seconds.toFixed(1)];
  });
  const head = ['exercise', 'result', 'tries', 'replies', 'malformed', 'seconds'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string => `  ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd();
  return [line(head), ...rows.map(line), ''].join('\n');
}
