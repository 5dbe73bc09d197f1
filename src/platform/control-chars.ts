// Makes text safe to show in a question or a warning: control characters become visible escapes,
// so a terminal cannot hide, overwrite or recolour part of what the user is asked to approve.

const NAMED: Readonly<Record<number, string>> = { 0x1b: '\\e', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x00: '\\0' };

/** C0 (but newline when kept), DEL, C1, and the bidirectional overrides that reorder what is shown. */
function needsEscape(code: number, keepNewlines: boolean): boolean {
  if (code === 0x0a) return !keepNewlines;
  if (code < 0x20 || code === 0x7f) return true;
  if (code >= 0x80 && code <= 0x9f) return true;
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0x200e || code === 0x200f;
}

function escapeOne(code: number): string {
  const named = NAMED[code];
  if (named !== undefined) return named;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

/**
 * `text` with every control character shown as an escape: ESC as `\e`, newline `\n` (unless kept),
 * carriage return `\r`, tab `\t`, others `\xNN` / `\u{NNNN}`. Printable text is left as it is.
 */
export function escapeControlChars(text: string, options: { keepNewlines?: boolean } = {}): string {
  const keepNewlines = options.keepNewlines ?? false;
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    out += needsEscape(code, keepNewlines) ? escapeOne(code) : char;
  }
  return out;
}
