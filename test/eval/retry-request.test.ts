// What a later try sends: only the test output when the session can be resumed, the task restated when
// the previous try saved no session to continue.
import { describe, expect, it } from 'vitest';
import type { Exercise } from '../../src/eval/exercises.js';
import { retryRequest } from '../../src/eval/run-exercise.js';
import { tandemArgs } from '../../src/eval/tandem-process.js';

const exercise: Exercise = {
  name: 'py-demo',
  dir: '/nowhere',
  language: 'python',
  files: ['demo.py'],
  test: 'python -m unittest -q',
  instructions: '# Demo\n\nWrite `double(n)` that returns twice n, for any integer n.\n',
};

describe('retryRequest', () => {
  it('resumes the saved session with just the test output', () => {
    const request = retryRequest(exercise, 'FAIL: test_double\nAssertionError: 3 != 4\n', '20261130-061500-k3x9');
    expect(request.resume).toBe('20261130-061500-k3x9');
    expect(request.files).toEqual(['demo.py']);
    expect(request.message).toBe('The tests fail (`python -m unittest -q`):\n\n```\nFAIL: test_double\nAssertionError: 3 != 4\n```');
  });

  it('restates the task in a fresh session when there is none to resume', () => {
    const request = retryRequest(exercise, 'AssertionError: 3 != 4', null);
    expect(request.resume).toBeNull();
    expect(request.message).toContain('# Demo');
    expect(request.message).toContain('```\nAssertionError: 3 != 4\n```');
  });

  it('keeps the head and the tail of a very long test output', () => {
    const output = `FIRST FAILURE\n${'noise line\n'.repeat(2000)}SUMMARY: 1 failed\n`;
    const { message } = retryRequest(exercise, output, '20261130-061500-k3x9');
    expect(message.length).toBeLessThan(7000);
    expect(message).toContain('FIRST FAILURE');
    expect(message).toContain('[...]');
    expect(message).toContain('SUMMARY: 1 failed');
  });
});

describe('tandemArgs', () => {
  it('adds --resume with the session id only when continuing', () => {
    const fresh = tandemArgs({ message: 'do it', files: ['demo.py'], resume: null }, ['--model', 'm']);
    expect(fresh).not.toContain('--resume');
    const resumed = tandemArgs({ message: 'tests fail', files: ['demo.py'], resume: '20261130-061500-k3x9' }, ['--model', 'm']);
    expect(resumed.slice(0, 4)).toEqual(['--message', 'tests fail', '--resume', '20261130-061500-k3x9']);
    expect(resumed.slice(-2)).toEqual(['--', 'demo.py']);
  });
});
