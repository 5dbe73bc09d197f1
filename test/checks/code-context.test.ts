import { describe, expect, it } from 'vitest';
import { enclosingHeaders, findReportedLines, renderCodeContext } from '../../src/checks/code-context.js';

describe('findReportedLines', () => {
  it('reads the common file:line formats for the file only', () => {
    const output = [
      'src/app.py:12:5: F821 undefined name',
      './src/app.py:3: E1 bad',
      '/home/u/repo/src/app.py:40:1: W2 x',
      'src/app.ts(7,2): error TS1005',
      'File "src/app.py", line 21, in f',
      'src/other.py:99:1: F1 elsewhere',
      'mysrc/app.py:77: not this file',
    ].join('\n');
    expect(findReportedLines(output, 'src/app.py')).toEqual([3, 12, 21, 40]);
    expect(findReportedLines(output, 'src/app.ts')).toEqual([7]);
  });
});

const python = `import os


class Shop:
    """A shop."""

    def total(self, items):
        result = 0
        for item in items:
            result += item.price
        return result

    def name(self):
        return "shop"


def helper():
    return os.sep
`;

describe('renderCodeContext', () => {
  it('marks reported lines, keeps the enclosing headers and elides the rest', () => {
    expect(renderCodeContext(python, [10])).toBe(
      [
        '...',
        '  4 | class Shop:',
        '...',
        '  7 |     def total(self, items):',
        '  8 |         result = 0',
        '  9 |         for item in items:',
        '>10 |             result += item.price',
        ' 11 |         return result',
        ' 12 |',
        '...',
      ].join('\n'),
    );
  });

  it('skips closing braces when looking for headers', () => {
    const ts = ['class A {', '  m() {', '    x();', '  }', '  n() {', '    bad();', '  }', '}'];
    expect(enclosingHeaders(ts, 5)).toEqual([0, 4]);
  });

  it('returns nothing for lines outside the file', () => {
    expect(renderCodeContext(python, [0, 500])).toBe('');
  });

  it('shows top-level lines without headers', () => {
    expect(renderCodeContext('a = 1\nb = (\nc = 3\n', [2], { around: 0 })).toBe('...\n>2 | b = (\n...');
  });
});
