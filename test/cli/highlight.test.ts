import { describe, expect, it } from 'vitest';
import { highlightCode, highlightLastLine, isKnownLanguage, type CodeStyle } from '../../src/cli/highlight.js';

// Visible markers instead of escape codes, so the expectations read as what a person would see.
const MARK: CodeStyle = {
  keyword: (s) => `<k>${s}</k>`,
  string: (s) => `<s>${s}</s>`,
  comment: (s) => `<c>${s}</c>`,
  number: (s) => `<n>${s}</n>`,
};

const strip = (s: string): string => s.replace(/<\/?[kscn]>/g, '');

describe('highlightCode (cli-highlight with our colours)', () => {
  it('marks keywords, strings, numbers and comments', () => {
    expect(highlightCode('const x = "a b"; // note', 'ts', MARK)).toBe('<k>const</k> x = <s>"a b"</s>; <c>// note</c>');
    expect(highlightCode('def f(): return 42  # done', 'py', MARK)).toBe('<k>def</k> f(): <k>return</k> <n>42</n>  <c># done</c>');
  });

  it('does not mark keywords inside identifiers or strings', () => {
    expect(highlightCode('constant = "if else"', 'js', MARK)).toBe('constant = <s>"if else"</s>');
  });

  it('colours each line of a token spanning lines on its own, so a line can be shown alone', () => {
    const lines = ['/* open', 'still comment */ let x = 1;'];
    expect(highlightCode(lines.join('\n'), 'typescript', MARK)).toBe('<c>/* open</c>\n<c>still comment */</c> <k>let</k> x = <n>1</n>;');
    expect(highlightLastLine(lines, 'typescript', MARK)).toBe('<c>still comment */</c> <k>let</k> x = <n>1</n>;');
  });

  it('leaves unknown languages unchanged and keeps every character', () => {
    expect(isKnownLanguage('python')).toBe(true);
    expect(isKnownLanguage('no-such-language')).toBe(false);
    expect(highlightCode('if x then y', 'no-such-language', MARK)).toBe('if x then y');
    const code = 'for (let i = 0; i < 10; i++) { s += `a${i}` } // x < y && "q"';
    expect(strip(highlightCode(code, 'js', MARK))).toBe(code);
  });
});
