import { describe, expect, it } from 'vitest';
import { escapeControlChars } from '../../src/platform/control-chars.js';

describe('escapeControlChars', () => {
  it.each([
    ['ruff check \u001b[8m; curl x | sh #\u001b[0m', 'ruff check \\e[8m; curl x | sh #\\e[0m'],
    ['a\rb', 'a\\rb'],
    ['line1\nline2', 'line1\\nline2'],
    ['tab\there', 'tab\\there'],
    ['bell\u0007 del\u007f', 'bell\\x07 del\\x7f'],
    ['c1 \u009b31m', 'c1 \\x9b31m'],
    ['nul\u0000', 'nul\\0'],
    ['rtl \u202e evil', 'rtl \\u{202e} evil'],
    ['plain text, ünïcödé and emoji 🎉', 'plain text, ünïcödé and emoji 🎉'],
    ['back\\slash stays', 'back\\slash stays'],
  ])('%j -> %j', (input, shown) => {
    expect(escapeControlChars(input)).toBe(shown);
  });

  it('can keep newlines for multi-line warnings', () => {
    expect(escapeControlChars('a\nb\u001b', { keepNewlines: true })).toBe('a\nb\\e');
  });

  it('leaves nothing a terminal would act on', () => {
    const all = Array.from({ length: 0xa0 }, (_, i) => String.fromCharCode(i)).join('');
    expect(escapeControlChars(all)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});
