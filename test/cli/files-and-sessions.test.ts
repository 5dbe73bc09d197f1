import { describe, expect, it } from 'vitest';
import { formatSessionList } from '../../src/cli/commands/sessions.js';
import { globToRegExp, matchGlob } from '../../src/cli/commands/glob.js';
import { createTerminalScreen } from '../../src/cli/render-terminal.js';
import { PLAIN } from '../../src/cli/colors.js';

describe('globs for /add', () => {
  const files = ['src/a.py', 'src/b.py', 'src/deep/c.py', 'src/notes.txt', 'test/a_test.py', 'x.py'];

  it('keeps * and ? inside one folder and lets ** cross folders', () => {
    expect(matchGlob('src/*.py', files)).toEqual(['src/a.py', 'src/b.py']);
    expect(matchGlob('src/**/*.py', files)).toEqual(['src/a.py', 'src/b.py', 'src/deep/c.py']);
    expect(matchGlob('**/*.py', files)).toHaveLength(5);
    expect(matchGlob('src/?.py', files)).toEqual(['src/a.py', 'src/b.py']);
    expect(matchGlob('src/[ab].py', files)).toEqual(['src/a.py', 'src/b.py']);
    expect(matchGlob('src/[!a].py', files)).toEqual(['src/b.py']);
  });

  it('treats regular-expression characters literally', () => {
    expect(globToRegExp('a+b(c).py').test('a+b(c).py')).toBe(true);
    expect(globToRegExp('a.py').test('aXpy')).toBe(false);
  });
});

describe('session list', () => {
  it('shows date, first request and files, and marks one-shot runs', () => {
    const text = formatSessionList([
      { id: '20260101-100000-abcd', created: '2026-01-01T10:00:00.000Z', firstRequest: 'Fix the\nparser', files: ['a.py'], interactive: true },
      { id: '20260102-100000-efgh', created: null, firstRequest: null, files: [], interactive: false },
    ]);
    expect(text).toBe(
      [
        'Saved sessions (newest last; resume with tandem --resume ID):',
        '  20260101-100000-abcd  2026-01-01 10:00',
        '      Fix the parser',
        '      files: a.py',
        '  20260102-100000-efgh  unknown date  (one-shot)',
        '      (no request)',
        '',
      ].join('\n'),
    );
  });
});

describe('failed edits on the terminal', () => {
  it('show the user the explanation the model gets, closest lines included', () => {
    const err: string[] = [];
    const emit = createTerminalScreen({ out: () => {}, err: (t) => err.push(t), palette: PLAIN }).emit;
    const detail = 'The SEARCH block does not match a.py.\n```\nthe block as sent\n```\nThe closest lines in a.py (lines 3-4):\n3 | def f():\n4 |     return 1';
    emit({ type: 'edit', path: 'a.py', status: 'failed', error: 'The SEARCH block does not match a.py.', detail });
    expect(err.join('')).toBe('Edit to a.py failed: The SEARCH block does not match a.py.\nThe closest lines in a.py (lines 3-4):\n3 | def f():\n4 |     return 1\n');
  });
});
