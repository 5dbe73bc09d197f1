// The request text: each user comment with its file, line and lines around it, marked; the mode.
import { describe, expect, it } from 'vitest';
import { buildWatchRequest } from '../../src/watch/watch-request.js';

const templates = { code: 'CODE\n{comments}\nEND', ask: 'ASK\n{comments}\nEND' };

describe('buildWatchRequest', () => {
  it('quotes each comment with its file and line, in code mode when one asks for a change', () => {
    const text = 'a\nb\nc\nd\n# fix it AI!\ne\nf\ng\nh\ni\nj\nk\nl\nm\n# and this AI?\n';
    const request = buildWatchRequest(
      [{ path: 'src/a.py', text, comments: [{ line: 5, text: 'fix it AI!', kind: 'code' }, { line: 15, text: 'and this AI?', kind: 'ask' }] }],
      [{ path: 'src/a.py', line: 5, text: 'fix it AI!', kind: 'code' }],
      templates,
    );
    expect(request.mode).toBe('code');
    expect(request.files).toEqual(['src/a.py']);
    expect(request.text).toContain('src/a.py, AI comments on lines 5, 15:');
    expect(request.text).toContain('>  5 | # fix it AI!');
    expect(request.text).toContain('   2 | b');
    expect(request.text).toContain('> 15 | # and this AI?');
    expect(request.text).toContain('\n...\n');
    expect(request.summary).toBe('src/a.py:5: fix it AI!');
  });

  it('asks when only questions fired, and a fence longer than any in the file', () => {
    const request = buildWatchRequest(
      [{ path: 'a.md', text: '````\n<!-- why AI? -->\n', comments: [{ line: 2, text: 'why AI?', kind: 'ask' }] }],
      [{ path: 'a.md', line: 2, text: 'why AI?', kind: 'ask' }],
      templates,
    );
    expect(request.mode).toBe('ask');
    expect(request.text.startsWith('ASK\n')).toBe(true);
    expect(request.text).toContain('`````\n');
  });

  it('escapes control characters in the one-line summary', () => {
    const request = buildWatchRequest([], [{ path: 'a.py', line: 1, text: 'x \u001b[2J AI!', kind: 'code' }], templates);
    expect(request.summary).toBe('a.py:1: x \\e[2J AI!');
  });
});
