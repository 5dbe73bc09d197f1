import { describe, expect, it } from 'vitest';
import { matchBlock, type MatchResult } from '../../src/edits/match.js';
import { isElisionLine, toLines } from '../../src/edits/match-lines.js';

function apply(file: string, search: string, replace: string, after: number | null = null): { r: MatchResult; text: string } {
  const lines = toLines(file);
  const r = matchBlock(lines, toLines(search), toLines(replace), after);
  if (r.kind !== 'found') return { r, text: file };
  lines.splice(r.start, r.end - r.start, ...r.replacement);
  return { r, text: lines.join('\n') + '\n' };
}

describe('matchBlock ladder', () => {
  it('exact', () => {
    const { r, text } = apply('a\nb\nc\n', 'b\n', 'B\n');
    expect(r).toMatchObject({ kind: 'found', rung: 'exact', start: 1, end: 2 });
    expect(text).toBe('a\nB\nc\n');
  });

  it('ignores trailing whitespace and keeps the file text of unchanged lines', () => {
    const { r, text } = apply('x = 1   \ny = 2\t\nz\n', 'x = 1\ny = 2\n', 'x = 1\ny = 3\n');
    expect(r).toMatchObject({ kind: 'found', rung: 'trailing_whitespace' });
    expect(text).toBe('x = 1   \ny = 3\nz\n');
  });

  it('re-indents REPLACE when SEARCH lost its indentation', () => {
    const file = 'class A:\n    def f(self):\n        return 1\n';
    const { r, text } = apply(file, 'def f(self):\n    return 1\n', 'def f(self):\n    x = 2\n    return x\n');
    expect(r).toMatchObject({ kind: 'found', rung: 'indentation' });
    expect(text).toBe('class A:\n    def f(self):\n        x = 2\n        return x\n');
  });

  it('removes indentation when SEARCH has too much', () => {
    const file = 'if x:\n  y()\nz()\n';
    const { r, text } = apply(file, '    if x:\n      y()\n', '    if x:\n      w()\n');
    expect(r).toMatchObject({ kind: 'found', rung: 'indentation' });
    expect(text).toBe('if x:\n  w()\nz()\n');
  });

  it('refuses an inconsistent indentation offset', () => {
    const { r } = apply('  a\n      b\n', 'a\nb\n', 'c\n');
    expect(r.kind).toBe('none');
  });

  it('drops blank lines at the edges of SEARCH', () => {
    const { r, text } = apply('a\nb\nc\n', '\nb\n\n', '\nB\n\n');
    expect(r).toMatchObject({ kind: 'found', rung: 'blank_edges' });
    expect(text).toBe('a\nB\nc\n');
  });

  it('matches `...` elision in pieces and keeps the text between', () => {
    const file = 'function f() {\n  one();\n  two();\n  three();\n  return 0;\n}\n';
    const search = 'function f() {\n...\n  return 0;\n}\n';
    const replace = 'function f(x) {\n...\n  return x;\n}\n';
    const { r, text } = apply(file, search, replace);
    expect(r).toMatchObject({ kind: 'found', rung: 'elision' });
    expect(text).toBe('function f(x) {\n  one();\n  two();\n  three();\n  return x;\n}\n');
  });

  it('treats a comment ellipsis as elision', () => {
    expect(isElisionLine('    // ... existing code ...')).toBe(true);
    expect(isElisionLine('# ...')).toBe(true);
    expect(isElisionLine('x = "..."')).toBe(false);
    expect(isElisionLine('// see the docs')).toBe(false);
  });

  it('fails elision when REPLACE has a different number of `...`', () => {
    const { r } = apply('a\nb\nc\n', 'a\n...\nc\n', 'a\nc\n');
    expect(r.kind).toBe('none');
    expect(r.kind === 'none' && r.hint).toMatch(/same number/);
  });

  it('folds smart quotes, dashes and non-breaking spaces, keeping unchanged file lines', () => {
    const file = 'msg = \u201Chello\u201D\nrange = 1\u20132\nkeep = \u2018x\u2019\n';
    const { r, text } = apply(file, 'msg = "hello"\nrange = 1-2\nkeep = \'x\'\n', 'msg = "bye"\nrange = 1-2\nkeep = \'x\'\n');
    expect(r).toMatchObject({ kind: 'found', rung: 'unicode' });
    expect(text).toBe('msg = "bye"\nrange = 1\u20132\nkeep = \u2018x\u2019\n');
  });

  it('does not fold tabs to spaces', () => {
    const { r } = apply('\tx = 1\n  y\n', '    x = 1\n    y\n', 'z\n');
    expect(r.kind).toBe('none');
  });

  it('reports an ambiguous match with 1-based candidate lines', () => {
    const { r } = apply('x\nfoo()\ny\nfoo()\n', 'foo()\n', 'bar()\n');
    expect(r).toEqual({ kind: 'ambiguous', rung: 'exact', candidates: [2, 4] });
  });

  it('stops at an ambiguous rung instead of trying lower rungs', () => {
    const { r } = apply('  a\n  a\n', 'a\n', 'b\n');
    expect(r).toMatchObject({ kind: 'ambiguous', rung: 'indentation', candidates: [1, 2] });
  });

  it('uses the first occurrence after the previous block to disambiguate', () => {
    const { r, text } = apply('foo()\nmid\nfoo()\nfoo()\n', 'foo()\n', 'bar()\n', 2);
    expect(r).toMatchObject({ kind: 'found', start: 2 });
    expect(text).toBe('foo()\nmid\nbar()\nfoo()\n');
  });

  it('elision pieces after the first must be unique after the previous piece', () => {
    const file = 'start\nx\nend\nx\nend\n';
    const { r } = apply(file, 'start\n...\nend\n', 'START\n...\nEND\n');
    expect(r).toMatchObject({ kind: 'ambiguous', rung: 'elision', candidates: [3, 5] });
  });

  it('finds nothing when nothing matches', () => {
    expect(apply('a\n', 'zzz\n', 'y\n').r.kind).toBe('none');
  });
});
