import { describe, expect, it } from 'vitest';
import { highlightLine, isKnownLanguage, START_STATE, type CodeStyle } from '../../src/cli/highlight.js';

// Visible markers instead of escape codes, so the expectations read as what a person would see.
const MARK: CodeStyle = {
  keyword: (s) => `<k>${s}</k>`,
  string: (s) => `<s>${s}</s>`,
  comment: (s) => `<c>${s}</c>`,
  number: (s) => `<n>${s}</n>`,
};

const hl = (line: string, lang: string) => highlightLine(line, lang, MARK).text;

describe('highlightLine', () => {
  it('marks keywords, strings, numbers and line comments in TypeScript', () => {
    expect(hl('const x = "a b"; // note', 'ts')).toBe('<k>const</k> x = <s>"a b"</s>; <c>// note</c>');
    expect(hl('return 42 + 0x1F', 'typescript')).toBe('<k>return</k> <n>42</n> + <n>0x1F</n>');
  });

  it('does not mark keywords inside identifiers or strings', () => {
    expect(hl('constant = "if else"', 'js')).toBe('constant = <s>"if else"</s>');
    expect(hl("s = 'it\\'s' # c", 'python')).toBe("s = <s>'it\\'s'</s> <c># c</c>");
  });

  it('uses each language’s own comment markers and keywords', () => {
    expect(hl('def f(): pass  # done', 'py')).toBe('<k>def</k> f(): <k>pass</k>  <c># done</c>');
    expect(hl('fn main() { let v = 1; }', 'rust')).toBe('<k>fn</k> main() { <k>let</k> v = <n>1</n>; }');
    expect(hl('SELECT a FROM t -- why', 'sql')).toBe('<k>SELECT</k> a <k>FROM</k> t <c>-- why</c>');
    expect(hl('echo "$HOME" # x', 'bash')).toBe('<k>echo</k> <s>"$HOME"</s> <c># x</c>');
  });

  it('carries a block comment over to the next lines', () => {
    const first = highlightLine('x = 1; /* start', 'js', MARK);
    expect(first.text).toBe('x = <n>1</n>; <c>/* start</c>');
    expect(first.state.inBlockComment).toBe(true);
    const middle = highlightLine('still comment if', 'js', MARK, first.state);
    expect(middle.text).toBe('<c>still comment if</c>');
    const last = highlightLine('end */ return', 'js', MARK, middle.state);
    expect(last.text).toBe('<c>end */</c> <k>return</k>');
    expect(last.state).toEqual(START_STATE);
  });

  it('leaves unknown languages and plain text unchanged', () => {
    expect(hl('const x = 1', 'brainfunk')).toBe('const x = 1');
    expect(hl('const x = 1', '')).toBe('const x = 1');
    expect(isKnownLanguage('python title="a.py"')).toBe(true);
    expect(isKnownLanguage('text')).toBe(false);
  });

  it('keeps every character of the line, in order', () => {
    const line = 'if (a <= b) { s = `t${x}`; /* c */ n = 1.5e3; } // é 🙂';
    const text = hl(line, 'ts').replace(/<\/?[kscn]>/g, '');
    expect(text).toBe(line);
  });
});
