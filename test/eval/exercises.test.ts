// The bundled suite is complete: every exercise has instructions, starting files, hidden tests and a
// test command in a language the harness can run without a compiler.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hiddenFiles, loadExercises, matchesFilter, startingFiles } from '../../src/eval/exercises.js';

const SUITE = fileURLToPath(new URL('../../eval/exercises', import.meta.url));

describe('the exercise suite', () => {
  it('has at least 40 exercises in Python and JavaScript, each complete', async () => {
    const exercises = await loadExercises(SUITE, null);
    expect(exercises.length).toBeGreaterThanOrEqual(40);
    expect(new Set(exercises.map((e) => e.language))).toEqual(new Set(['python', 'javascript']));
    for (const exercise of exercises) {
      const start = await startingFiles(exercise);
      const hidden = await hiddenFiles(exercise);
      expect(exercise.instructions.length, exercise.name).toBeGreaterThan(100);
      expect(start, exercise.name).toEqual(expect.arrayContaining(exercise.files));
      expect(start.some((f) => hidden.includes(f)), exercise.name).toBe(false);
      expect(hidden.length, exercise.name).toBeGreaterThan(0);
      expect(exercise.test, exercise.name).toMatch(/^(python3 -m unittest|node --test) /);
      for (const file of exercise.files) expect(existsSync(join(exercise.dir, file))).toBe(true);
    }
  });

  it('filters by substring or regex', async () => {
    expect(matchesFilter('py-luhn', 'luhn')).toBe(true);
    expect(matchesFilter('py-luhn', '^js-')).toBe(false);
    expect(matchesFilter('js-chunk-array', 'luhn|chunk')).toBe(true);
    expect(matchesFilter('py-x', '(')).toBe(false);
    expect((await loadExercises(SUITE, '^js-')).every((e) => e.language === 'javascript')).toBe(true);
  });
});
