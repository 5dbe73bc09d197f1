import { describe, expect, it } from 'vitest';
import { createMarkdownStream, renderInline, type MarkdownStyle } from '../../src/cli/markdown-stream.js';
import { ANSI_CODE_STYLE } from '../../src/cli/highlight.js';
import { createPlainStream } from '../../src/cli/reply-stream.js';

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
  const stream = style ? createMarkdownStream((t) => writes.push(t), style) : createPlainStream((t) => writes.push(t));
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

  it('hides fence lines, highlights the code by language and does not treat it as Markdown', () => {
    const { text } = render(['```python\n', '# not a heading\n', 'x = 1\n', '```\n', '# Heading\n']);
    expect(text.split('\n')).toEqual(['<c># not a heading</c>', 'x = <n>1</n>', '<h>Heading</h>', '']);
  });

  it('renders only whole lines when not live, then the rest at the end', () => {
    const writes: string[] = [];
    const stream = createMarkdownStream((t) => writes.push(t), MARK);
    stream.push('**bo');
    expect(writes).toEqual([]);
    stream.push('ld** text\nsecond');
    expect(writes).toEqual(['<b>bold</b> text\n']);
    stream.end();
    expect(writes).toEqual(['<b>bold</b> text\n', 'second\n']);
  });

  it('draws the unfinished line live, appending while it only grows and redrawing when it changes', () => {
    const writes: string[] = [];
    const stream = createMarkdownStream((t) => writes.push(t), MARK, { live: true, width: 80 });
    stream.push('Some words');
    stream.push(' and more');
    expect(writes).toEqual(['Some words', ' and more']);
    stream.push(' with `co');
    stream.push('de`');
    expect(writes.slice(2)).toEqual([' with `co', '\r\u001b[J', 'Some words and more with <code>code</code>']);
    stream.push('\n');
    expect(writes.slice(5)).toEqual(['\r\u001b[J', 'Some words and more with <code>code</code>\n']);
  });

  it('erases the live line for a brief note and draws it again right after', async () => {
    const writes: string[] = [];
    const stream = createMarkdownStream((t) => writes.push(t), MARK, { live: true, width: 80 });
    stream.push('Half a line');
    stream.settle(true);
    writes.push('queued: next\n');
    await Promise.resolve();
    expect(writes.join('')).toBe('Half a line\r\u001b[Jqueued: next\nHalf a line');
    stream.push(' and the rest\n');
    expect(writes.join('')).toBe('Half a line\r\u001b[Jqueued: next\nHalf a line\r\u001b[JHalf a line and the rest\n');
  });

  it('moves up over the rows of a wrapped live line before redrawing it', () => {
    const writes: string[] = [];
    const stream = createMarkdownStream((t) => writes.push(t), MARK, { live: true, width: 21 });
    stream.push('alpha beta gamma delta epsilon');
    expect(writes.join('')).toBe('alpha beta gamma\ndelta epsilon');
    stream.push(' **x**\n');
    expect(writes.join('')).toContain('\r\u001b[1A\u001b[J');
  });

  it('wraps prose at word boundaries, with a hanging indent for list items', () => {
    const words = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor';
    const stream = (line: string): string[] => {
      const writes: string[] = [];
      const s = createMarkdownStream((t) => writes.push(t), MARK, { width: 31 });
      s.push(`${line}\n`);
      s.end();
      return writes.join('').trimEnd().split('\n');
    };
    const paragraph = stream(words);
    expect(paragraph.every((row) => row.length <= 30)).toBe(true);
    expect(paragraph.join(' ')).toBe(words);
    const item = stream(`- ${words}`);
    expect(item[0]).toMatch(/^• lorem/);
    expect(item.slice(1).every((row) => row.startsWith('  ') && !row.startsWith('   '))).toBe(true);
    const numbered = stream(`12. ${words}`);
    expect(numbered.slice(1).every((row) => row.startsWith('    ') && !row.startsWith('     '))).toBe(true);
  });

  it('renders a pipe table as a grid once its last row is in, with no delimiter row', () => {
    const plainFrame = { ...MARK, bold: (s: string) => s, dim: (s: string) => s };
    const { text } = render(['| name | size |\n', '| --- | ---: |\n', '| a.py | 12 |\n', '| long_name.py | 3 |\n', 'After.\n'], plainFrame);
    const rows = text.split('\n');
    expect(text).not.toContain('---');
    expect(rows[0]).toBe('│ name         │ size │');
    expect(rows[1]).toBe('├──────────────┼──────┤');
    expect(rows[2]).toBe('│ a.py         │   12 │');
    expect(rows[3]).toBe('│ long_name.py │    3 │');
    expect(rows[4]).toBe('After.');
  });

  it('shows pipes that are not a table as text', () => {
    expect(render(['| just a pipe |\n', 'next\n']).text).toBe('| just a pipe |\nnext\n');
  });

  it('shows SEARCH/REPLACE blocks exactly as typed, inside or outside a fence', () => {
    const block = ['<<<<<<< SEARCH', '# old *title*', '=======', '# new **title**', '>>>>>>> REPLACE'];
    const fenced = render(['app.py\n', '```python\n', ...block.map((l) => `${l}\n`), '```\n']).text.split('\n');
    expect(fenced.slice(1, 6)).toEqual(block);
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
