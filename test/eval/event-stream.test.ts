import { describe, expect, it } from 'vitest';
import { analyzeEvents, parseEventLines } from '../../src/eval/event-stream.js';
import { compareResults } from '../../src/eval/compare.js';
import type { ExerciseResult } from '../../src/eval/run-exercise.js';
import { summarize } from '../../src/eval/summary.js';

const usage = (p: number, c: number, cost: number | null) => ({ type: 'usage', promptTokens: p, completionTokens: c, cachedTokens: 0, cost, sessionCost: cost });

describe('analyzeEvents', () => {
  it('ties edits to their reply and marks format failures', () => {
    const events = [
      { type: 'session', model: 'm', editFormat: 'udiff', files: [], readOnly: [] },
      usage(100, 10, 0.5),
      { type: 'assistant', text: 'first', interrupted: false },
      { type: 'edit', path: 'a.py', status: 'failed', error: 'no match' },
      { type: 'edit', path: 'b.py', status: 'applied', diff: '--- b.py' },
      { type: 'reflection', n: 1, reason: 'edit' },
      usage(200, 20, null),
      { type: 'assistant', text: 'second', interrupted: false },
      { type: 'edit', path: 'a.py', status: 'applied', diff: '--- a.py' },
      { type: 'lint', ok: false, output: 'SyntaxError' },
      { type: 'reflection', n: 2, reason: 'syntax' },
      usage(300, 30, 0.25),
      { type: 'assistant', text: 'third', interrupted: false },
      { type: 'error', message: 'Stopped after 3 reflections; still failing: edit, test.' },
      { type: 'result', status: 'reflection_limit', totals: {} },
    ];
    const stats = analyzeEvents(events);
    expect(stats.editFormat).toBe('udiff');
    expect(stats.replies.map((r) => [r.text, r.wellFormed, r.edits.length])).toEqual([
      ['first', false, 2],
      ['second', true, 1],
      ['third', false, 0],
    ]);
    expect(stats).toMatchObject({ reflections: 2, syntaxErrors: 1, promptTokens: 600, completionTokens: 60, cost: 0.75, status: 'reflection_limit' });
  });

  it('skips lines that are not JSON', () => {
    expect(parseEventLines('noise\n{"type":"info"}\n{"type":\n')).toEqual([{ type: 'info' }]);
  });
});

function result(name: string, passedOnTry: number | null, wellFormed: boolean[]): ExerciseResult {
  const replies = wellFormed.map((w) => ({ text: '', edits: [], wellFormed: w }));
  const attempt = { n: 1, replies, reflections: 1, syntaxErrors: 0, promptTokens: 10, completionTokens: 5, cost: null, exitCode: 0 };
  return { name, language: 'python', passed: passedOnTry !== null, passedOnTry, seconds: 2, chatFiles: [], startingFiles: {}, tries: [attempt] } as unknown as ExerciseResult;
}

describe('summarize and compare', () => {
  it('counts passes per try and well-formed replies', () => {
    const s = summarize([result('a', 1, [true]), result('b', 2, [false, true]), result('c', null, [true])], 2);
    expect(s).toMatchObject({ exercises: 3, passedByTry: [1, 2], replies: 4, wellFormed: 3, malformed: 1, reflections: 3, cost: null, secondsPerExercise: 2 });
  });

  it('ranks passing sooner as better', () => {
    const changes = compareResults([result('a', 2, []), result('b', 1, []), result('c', 1, [])], [result('a', 1, []), result('b', null, []), result('d', 1, [])]);
    expect(changes.changes.map((c) => [c.name, c.verdict])).toEqual([
      ['a', 'better'],
      ['b', 'worse'],
      ['c', 'only-a'],
      ['d', 'only-b'],
    ]);
    expect(changes).toMatchObject({ passedA: 2, passedB: 1, common: 2 });
  });
});
