import { describe, expect, it } from 'vitest';
import { createMarkdownStream, renderInline, type MarkdownStyle } from '../../src/cli/markdown-stream.js';
import { ANSI_CODE_STYLE } from '../../src/cli/highlight.js';

const tag = (name: string) => (s: string) => `<${name}>${s}</${name}>`;
const MARK: MarkdownStyle = {
  bold: tag('b'),
  italic: tag('i'),
  heading: tag('h'),
  inlineCode: tag('code'),
  dim: tag('dim'),
  link: tag('a'),
  code: { keyword: tag('k'), string: tag('s'), comment: tag('c'), number: tag('n') },
  unicode: true,
};

function render(chunks: readonly string[], style: MarkdownStyle | null = MARK): { writes: string[]; text: string } {
  const writes: string[] = [];
  const stream = createMarkdownStream((t) => writes.push(t), style);
  for (const chunk of chunks) stream.push(chunk);
  stream.end();
  return { writes, text: writes.join('') };
}

describe('markdown stream', () => {
  it('renders headings, lists, emphasis, inline code and links', () => {
    const { text } = render([
      '# Plan\n',
      'Use **bold**, *italic*, _also_ and `a*b*c`.\n',
      '- first item\n',
      '  * nested `x`\n',
      '2. numbered\n',
      '> quoted\n',
      '---\n',
      'See [docs](https://example.com).\n',
    ]);
    expect(text.split('\n')).toEqual([
      '<h>Plan</h>',
      'Use <b>bold</b>, <i>italic</i>, <i>also</i> and <code>a*b*c</code>.',
      '• first item',
      '  • nested <code>x</code>',
      '2. numbered',
      '<dim>│</dim> <i>quoted</i>',
      `<dim>${'─'.repeat(40)}</dim>`,
      'See <a>docs</a> <dim>(https://example.com)</dim>.',
      '',
    ]);
  });

  it('leaves snake_case names and lone asterisks alone', () => {
    expect(renderInline('call my_var_name with 2 * 3 * 4', MARK)).toBe('call my_var_name with 2 * 3 * 4');
  });

  it('highlights fenced code by language and does not treat its content as Markdown', () => {
    const { text } = render(['```python\n', '# not a heading\n', 'x = 1\n', '```\n', '# Heading\n']);
    expect(text.split('\n')).toEqual([
      '<dim>```python</dim>',
      '<c># not a heading</c>',
      'x = <n>1</n>',
      '<dim>```</dim>',
      '<h>Heading</h>',
      '',
    ]);
  });

  it('renders only whole lines while the stream arrives, then the rest at the end', () => {
    const writes: string[] = [];
    const stream = createMarkdownStream((t) => writes.push(t), MARK);
    stream.push('**bo');
    expect(writes).toEqual([]);
    stream.push('ld** text\nsecond');
    expect(writes).toEqual(['<b>bold</b> text\n']);
    stream.end();
    expect(writes).toEqual(['<b>bold</b> text\n', 'second\n']);
  });

  it('shows SEARCH/REPLACE blocks exactly as typed, inside or outside a fence', () => {
    const block = ['<<<<<<< SEARCH', '# old *title*', '=======', '# new **title**', '>>>>>>> REPLACE'];
    const fenced = render(['app.py\n', '```python\n', ...block.map((l) => `${l}\n`), '```\n']).text.split('\n');
    expect(fenced.slice(2, 7)).toEqual(block);
    const bare = render(block.map((l) => `${l}\n`)).text.split('\n');
    expect(bare.slice(0, 5)).toEqual(block);
    expect(render([...block.map((l) => `${l}\n`), '**after**\n']).text).toContain('<b>after</b>');
  });

  it('uses ASCII bullets and rules when the terminal encoding lacks them', () => {
    const { text } = render(['- item\n', '***\n'], { ...MARK, unicode: false });
    expect(text).toBe(`- item\n<dim>${'-'.repeat(40)}</dim>\n`);
  });

  it('removes escape sequences a reply might carry and repairs broken surrogates', () => {
    const { text } = render(['evil \u001b[2Jclear\r\n', 'half \uD83D pair\n']);
    expect(text).toBe('evil [2Jclear\nhalf \uFFFD pair\n');
    expect(text).not.toContain('\u001b');
  });

  it('streams plain text unchanged without a style, keeping a split surrogate pair whole', () => {
    const { writes, text } = render(['# Title\n**x**', ' 🙂'.slice(0, 2), ' 🙂'.slice(2), '\n'], null);
    expect(text).toBe('# Title\n**x** 🙂\n');
    expect(writes.every((w) => !/[\uD800-\uDBFF]$/.test(w))).toBe(true);
  });

  it('colours code with real escape codes under the ANSI style', () => {
    const { text } = render(['```ts\n', 'const a = 1;\n', '```\n'], { ...MARK, code: ANSI_CODE_STYLE });
    expect(text).toContain('\u001b[35mconst\u001b[39m');
  });
});
