// A page as chat context: content types, escapes removed, and the token cap cut at a heading.
import { describe, expect, it } from 'vitest';
import { cutAtHeading, pageText, withoutControlChars } from '../../src/context/web-page.js';

const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;
const page = (contentType: string, body: string) => pageText({ url: 'https://x.test/p', contentType, body: Buffer.from(body), truncated: false, maxBytes: 1024, tokens: { count: words } });

describe('web pages', () => {
  it('keeps text, Markdown and JSON as they are and refuses other types', () => {
    expect(page('text/markdown; charset=utf-8', '# T\n\nbody')).toEqual({ ok: true, text: '# T\n\nbody', notes: [] });
    expect(page('application/json', '{"a": 1}')).toMatchObject({ ok: true, text: '{"a": 1}' });
    expect(page('image/png', 'x')).toEqual({ ok: false, message: 'https://x.test/p is image/png; only HTML, text, Markdown and JSON pages can be added' });
    expect(page('text/plain', ' \n ')).toEqual({ ok: false, message: 'https://x.test/p has no text to add' });
  });

  it('removes terminal escapes and control characters', () => {
    expect(withoutControlChars('a\x1b[2J\x1b]0;title\x07b\x00c\td\n')).toBe('a]0;titlebc\td\n');
    expect(page('text/plain', 'ok \x1b[31mred\x1b[0m')).toMatchObject({ text: 'ok red' });
  });

  it('cuts at the last heading that fits, with a note', () => {
    const text = ['# One', 'a '.repeat(40), '## Two', 'b '.repeat(40), '## Three', 'c '.repeat(40)].join('\n');
    const cut = cutAtHeading(text, 90, { count: words });
    expect(cut.cut).toBe(true);
    expect(cut.text).toContain('## Two');
    expect(cut.text).not.toContain('## Three');
    expect(cut.text).toMatch(/\[The rest of the page was cut: it is about \d+ tokens, over the 90-token cap\.\]$/);
    expect(cutAtHeading('short', 90, { count: words })).toEqual({ text: 'short', cut: false, tokens: 1 });
  });
});
