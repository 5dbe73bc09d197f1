// Line helpers shared by the matching rungs: splitting text into lines, folding look-alike
// characters, recognising `...` elision lines, and cached per-line keys for fast candidate scans.

/** Text to lines; a final '\n' ends the last line instead of starting an empty one. */
export function toLines(text: string): string[] {
  const t = text.replace(/\r\n/g, '\n');
  if (t === '') return [];
  return (t.endsWith('\n') ? t.slice(0, -1) : t).split('\n');
}

export function fromLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : lines.join('\n') + '\n';
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

const FOLDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-'],
  [/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, ' '],
  [/\u2026/g, '...'],
  [/[\u200B\u200C\u200D\u2060\uFEFF]/g, ''],
];

/**
 * Folds characters that models and word processors swap for each other. Tabs are NOT folded to
 * spaces: the tab width is a guess, and a guess could match a different place.
 */
export function foldLine(line: string): string {
  let out = line;
  for (const [re, to] of FOLDS) out = out.replace(re, to);
  return out;
}

/** `...`, `…`, or a comment that is only an ellipsis with a few words (`// ... existing code ...`). */
export function isElisionLine(line: string): boolean {
  const t = line.trim();
  if (t === '...' || t === '\u2026') return true;
  if (t.length > 80) return false;
  const inner = t
    .replace(/^(\/\/|#|--|;|\/\*+|<!--|\{\/\*)\s*/, '')
    .replace(/\s*(\*\/\}?|-->)$/, '')
    .trim();
  if (inner === t) return false;
  return /^(\.\.\.|\u2026)[\w\s.\u2026,'()-]*$/.test(inner);
}

export type KeyKind = 'exact' | 'trimEnd' | 'trim' | 'foldTrimEnd' | 'foldTrim';

export function lineKey(kind: KeyKind, line: string): string {
  switch (kind) {
    case 'exact':
      return line;
    case 'trimEnd':
      return line.trimEnd();
    case 'trim':
      return line.trim();
    case 'foldTrimEnd':
      return foldLine(line).trimEnd();
    case 'foldTrim':
      return foldLine(line).trim();
  }
}

/** FNV-1a over UTF-16 code units: a cheap integer pre-check before comparing strings. */
export function hashLine(line: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < line.length; i++) {
    h ^= line.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/**
 * File lines plus lazily built key arrays, so each rung scans a prepared array once per edit.
 * `hashes` (hashLine of each line) lets the exact rung compare integers; the planner keeps it
 * in step with its edits so a reply with thousands of blocks stays linear per block.
 */
export class LineView {
  private readonly cache = new Map<KeyKind, readonly string[]>();
  readonly hashes: readonly number[];
  constructor(
    readonly lines: readonly string[],
    hashes?: readonly number[],
  ) {
    this.hashes = hashes ?? lines.map(hashLine);
  }

  keys(kind: KeyKind): readonly string[] {
    if (kind === 'exact') return this.lines;
    const hit = this.cache.get(kind);
    if (hit) return hit;
    const built = this.lines.map((l) => lineKey(kind, l));
    this.cache.set(kind, built);
    return built;
  }
}
