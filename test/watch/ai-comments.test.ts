// The comment finder as a table: language, line, whether it is an AI comment, and its kind.
import { describe, expect, it } from 'vitest';
import { classify, findAiComments } from '../../src/watch/ai-comments.js';

type Row = readonly [file: string, text: string, expected: ReadonlyArray<readonly [line: number, kind: 'code' | 'ask' | 'context', text: string]>];

const ROWS: readonly Row[] = [
  ['a.py', '# add a docstring AI!', [[1, 'code', 'add a docstring AI!']]],
  ['a.py', 'x = 1  # why is this 1? ai?', [[1, 'ask', 'why is this 1? ai?']]],
  ['a.py', '# AI! make this async', [[1, 'code', 'AI! make this async']]],
  ['a.py', '# AI: this function is slow', [[1, 'context', 'AI: this function is slow']]],
  ['a.py', '## ai? what does it return', [[1, 'ask', 'ai? what does it return']]],
  ['a.py', 'send_EMAIL!\n# send the EMAIL!\n# PAID!\n# said AI\u200b!', []],
  ['a.py', 'print("do it AI!")\nx = "# not a comment AI!"', []],
  ['a.py', '"""\n# inside a docstring AI!\n"""\n# after it AI!', [[4, 'code', 'after it AI!']]],
  ['a.py', '# the maintainers AIM!\n# RAI!', []],
  ['b.js', '// rename x to count AI!', [[1, 'code', 'rename x to count AI!']]],
  ['b.js', "const url = 'http://x.org/AI!'; // AI? why", [[1, 'ask', 'AI? why']]],
  ['b.js', '/* tidy this AI! */ f();', [[1, 'code', 'tidy this AI!']]],
  ['b.js', '/**\n * split it up AI!\n */', [[2, 'code', 'split it up AI!']]],
  ['b.js', 'const s = `\n// in a template AI!\n`;', []],
  ['b.ts', 'let x = 1; // count it AI', [[1, 'context', 'count it AI']]],
  ['c.rs', "fn f<'a>(x: &'a str) {} // fix lifetimes AI!", [[1, 'code', 'fix lifetimes AI!']]],
  ['c.go', 'var s = "// AI!" // explain ai?', [[1, 'ask', 'explain ai?']]],
  ['d.sql', 'SELECT 1; -- index this AI!', [[1, 'code', 'index this AI!']]],
  ['d.lua', 'print("-- AI!") -- why? AI?', [[1, 'ask', 'why? AI?']]],
  ['e.el', '(setq x 1) ;; make it 2 AI!', [[1, 'code', 'make it 2 AI!']]],
  ['f.tex', '50\\% done % reword AI!', [[1, 'code', 'reword AI!']]],
  ['g.html', '<p>AI!</p> <!-- center this AI! -->', [[1, 'code', 'center this AI!']]],
  ['g.md', 'Ask the AI!\n<!-- AI? is this clear -->', [[2, 'ask', 'AI? is this clear']]],
  ['h.css', 'a { color: red; } /* darker AI! */', [[1, 'code', 'darker AI!']]],
  ['i.yaml', 'key: value # quote it AI!', [[1, 'code', 'quote it AI!']]],
  ['Makefile', 'all: # add a clean target AI!', [[1, 'code', 'add a clean target AI!']]],
  ['j.bin', '# AI!', []],
  ['README', '# AI!', []],
];

describe('findAiComments', () => {
  it.each(ROWS)('%s: %j', (file, text, expected) => {
    const found = findAiComments(file, text).map((c) => [c.line, c.kind, c.text] as const);
    expect(found).toEqual(expected);
  });
});

describe('classify', () => {
  it.each([
    ['AI! do it', 'code'],
    ['do it AI!', 'code'],
    ['why AI?', 'ask'],
    ['ai? why', 'ask'],
    ['AI note', 'context'],
    ['note AI', 'context'],
    ['EMAIL!', null],
    ['PAID!', null],
    ['maintain', null],
    ['AIR!', null],
  ] as const)('%s -> %s', (text, kind) => {
    expect(classify(text)).toBe(kind);
  });
});
