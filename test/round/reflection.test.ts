import { describe, expect, it } from 'vitest';
import { cleanCommitMessage, fallbackCommitMessage } from '../../src/round/commit-message.js';
import { decideReflection, needsFixApproval } from '../../src/round/reflection.js';

describe('reflection policy', () => {
  it('is done when nothing failed', () => {
    expect(decideReflection({ sections: [], kinds: [] }, 0, 3)).toEqual({ action: 'done' });
  });

  it('reflects every failure section in one message until the limit', () => {
    const failures = { sections: ['edit failed', 'lint failed'], kinds: ['edit', 'lint'] as const };
    expect(decideReflection({ ...failures, kinds: [...failures.kinds] }, 2, 3)).toEqual({ action: 'reflect', message: 'edit failed\n\nlint failed', reason: 'edit, lint' });
    expect(decideReflection({ ...failures, kinds: [...failures.kinds] }, 3, 3)).toEqual({ action: 'limit', reason: 'edit, lint' });
  });

  it('asks before fixing lint and test failures, never before resending failed edits', () => {
    expect(needsFixApproval(['lint'])).toBe(true);
    expect(needsFixApproval(['test', 'syntax'])).toBe(true);
    expect(needsFixApproval(['edit', 'lint'])).toBe(false);
    expect(needsFixApproval([])).toBe(false);
  });
});

describe('commit messages', () => {
  it('keeps the first real line, without fences, quotes or a final period', () => {
    expect(cleanCommitMessage('```\n"feat: add greeting."\n```')).toBe('feat: add greeting');
    expect(cleanCommitMessage('   \n')).toBeNull();
    expect(cleanCommitMessage(`fix: ${'x'.repeat(200)}`)?.length).toBe(100);
  });

  it('falls back to naming the files', () => {
    expect(fallbackCommitMessage(['a.py', 'b.py', 'c.py', 'd.py'])).toBe('chore: update a.py, b.py, c.py and 1 more');
  });
});
