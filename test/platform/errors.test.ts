// The one error base: tandem's typed failures are TandemErrors; a bug or a look-alike is not.
import { describe, expect, it } from 'vitest';
import { isTandemError, TandemError } from '../../src/platform/errors.js';
import { GitOperationError } from '../../src/git/errors.js';
import { ApplyError } from '../../src/round/apply.js';
import { PathRefusedError } from '../../src/edits/paths.js';
import { SandboxError } from '../../src/platform/sandbox.js';
import { ReadRefusedError } from '../../src/platform/text-files.js';
import { CliError } from '../../src/cli/cli-error.js';
import { EvalError } from '../../src/eval/errors.js';

describe('TandemError', () => {
  it('every typed failure is one, with its kind', () => {
    const errors: TandemError[] = [
      new GitOperationError('git_failed', 'git said no', { detail: 'hint: ...' }),
      new ApplyError('write_failed', 'a.py', 'disk full'),
      new PathRefusedError('escapes_root', '../x', 'no'),
      new SandboxError('no bwrap'),
      new ReadRefusedError('too_large', 'too big'),
      new CliError('bad flag', 2),
      new EvalError('bad_run', 'no such run'),
    ];
    for (const error of errors) {
      expect(isTandemError(error)).toBe(true);
      expect(error).toBeInstanceOf(Error);
      expect(typeof error.kind).toBe('string');
    }
    expect(errors.map((e) => e.kind)).toEqual(['git_failed', 'write_failed', 'escapes_root', 'sandbox_unavailable', 'too_large', 'cli', 'bad_run']);
    expect(errors[0]!.detail).toBe('hint: ...');
  });

  it('a bug, or an error that only looks typed (a `kind` of its own), is not one', () => {
    expect(isTandemError(new TypeError('x is undefined'))).toBe(false);
    expect(isTandemError(Object.assign(new Error('look-alike'), { kind: 'git_failed' }))).toBe(false);
    expect(isTandemError({ kind: 'git_failed', message: 'plain object' })).toBe(false);
    expect(isTandemError(null)).toBe(false);
  });
});
