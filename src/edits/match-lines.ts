// Line helpers shared by the matching rungs: splitting text into lines, folding look-alike
// characters, recognising `...` elision lines, and a file view with per-line keys and key indexes.

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

const NON_ASCII = /[^\x00-\x7F]/;

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
  // Every folded character is outside ASCII, and most code lines are pure ASCII.
  if (!NON_ASCII.test(line)) return line;
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

export type KeyKind = 'exact' | 'trimEnd' | 'trim' | 'foldTrimEnd' | 'foldTrim' | 'nfcTrim' | 'collapsed';

/** Look-alikes folded and accents composed (NFC), so NFD text from macOS tools equals what models write. */
function normalizeLine(line: string): string {
  return NON_ASCII.test(line) ? foldLine(line).normalize('NFC') : line;
}

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
    case 'nfcTrim':
      return normalizeLine(line).trim();
    case 'collapsed':
      // Runs of spaces and tabs inside the line count as one space (alignment the model did not keep).
      return normalizeLine(line).trim().replace(/[ \t]+/g, ' ');
  }
}

/** Where a run of `removed` lines at `start` became `added` lines. */
interface Splice {
  readonly start: number;
  readonly removed: number;
  readonly added: number;
}

/** A key's line positions when the index was built: one number, or several in ascending order. */
type Slot = number | number[];

interface Derived {
  readonly fn: (line: string) => unknown;
  readonly values: unknown[];
}

// An index is rebuilt once this many splices or freshly inserted lines have piled up since it was built:
// until then a lookup maps the old positions through the splices and scans only the new lines.
const MAX_PENDING_SPLICES = 128;
const MAX_FRESH_LINES = 2048;

/**
 * A file's lines with per-line data derived once (keys per rung kind, tokens) and indexes from key
 * to positions, all kept in step by `splice`, so a reply of thousands of blocks costs a lookup per
 * block instead of a scan of the file. The planner owns one per file and applies blocks through it.
 */
export class LineView {
  private readonly text: string[];
  private readonly derived = new Map<string, Derived>();
  private readonly indexes = new Map<KeyKind, Map<string, Slot>>();
  /** Splices since the indexes were built. */
  private pending: Splice[] = [];
  /** Current ranges [start, end) of lines inserted since the indexes were built. */
  private fresh: Array<readonly [number, number]> = [];
  private freshCount = 0;

  constructor(lines: readonly string[]) {
    this.text = lines.slice();
  }

  get lines(): readonly string[] {
    return this.text;
  }

  keys(kind: KeyKind): readonly string[] {
    if (kind === 'exact') return this.text;
    return this.perLine(kind, (l) => lineKey(kind, l));
  }

  /** `fn` of every line, computed once and kept in step with splices; `id` names `fn`. */
  perLine<T>(id: string, fn: (line: string) => T): readonly T[] {
    const hit = this.derived.get(id);
    if (hit) return hit.values as T[];
    const values = this.text.map(fn);
    this.derived.set(id, { fn, values });
    return values;
  }

  /** Replaces `removed` lines at `start` with `added`, updating everything derived from them. */
  splice(start: number, removed: number, added: readonly string[]): void {
    spliceInto(this.text, start, removed, added);
    for (const d of this.derived.values()) spliceInto(d.values, start, removed, added.map(d.fn));
    if (this.indexes.size === 0) return;
    this.pending.push({ start, removed, added: added.length });
    this.fresh = shiftRanges(this.fresh, start, removed, added.length);
    this.freshCount += added.length;
  }

  /** How many lines had key `key` when the index was built: cheap, for picking a rare anchor. */
  estimate(kind: KeyKind, key: string): number {
    const slot = this.index(kind).get(key);
    if (slot === undefined) return 0;
    return typeof slot === 'number' ? 1 : slot.length;
  }

  /** Current positions, ascending, of the lines whose `kind` key is `key`. */
  positions(kind: KeyKind, key: string): number[] {
    const slot = this.index(kind).get(key);
    const out: number[] = [];
    for (const p of slot === undefined ? [] : typeof slot === 'number' ? [slot] : slot) {
      const now = this.mapPosition(p);
      if (now >= 0) out.push(now);
    }
    if (this.fresh.length === 0) return out;
    const keys = this.keys(kind);
    let added = false;
    for (const [a, b] of this.fresh) {
      for (let i = a; i < b; i++) {
        if (keys[i] !== key) continue;
        out.push(i);
        added = true;
      }
    }
    return added ? out.sort((x, y) => x - y) : out;
  }

  private mapPosition(p: number): number {
    let at = p;
    for (const s of this.pending) {
      if (at < s.start) continue;
      if (at < s.start + s.removed) return -1;
      at += s.added - s.removed;
    }
    return at;
  }

  private index(kind: KeyKind): Map<string, Slot> {
    const stale = this.pending.length > MAX_PENDING_SPLICES || this.freshCount > MAX_FRESH_LINES;
    // All indexes share one list of pending splices, so a new one means building them all afresh.
    const missing = !this.indexes.has(kind) && this.pending.length > 0;
    if (stale || missing) this.rebuild();
    const hit = this.indexes.get(kind);
    if (hit) return hit;
    const built = buildIndex(this.keys(kind));
    this.indexes.set(kind, built);
    return built;
  }

  private rebuild(): void {
    for (const kind of this.indexes.keys()) this.indexes.set(kind, buildIndex(this.keys(kind)));
    this.pending = [];
    this.fresh = [];
    this.freshCount = 0;
  }
}

function buildIndex(keys: readonly string[]): Map<string, Slot> {
  const map = new Map<string, Slot>();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const slot = map.get(key);
    if (slot === undefined) map.set(key, i);
    else if (typeof slot === 'number') map.set(key, [slot, i]);
    else slot.push(i);
  }
  return map;
}

/** Ranges of fresh lines after a splice: cut where lines were removed, shifted after it, plus the new ones. */
function shiftRanges(
  ranges: ReadonlyArray<readonly [number, number]>,
  start: number,
  removed: number,
  added: number,
): Array<readonly [number, number]> {
  const end = start + removed;
  const delta = added - removed;
  const out: Array<readonly [number, number]> = [];
  for (const [a, b] of ranges) {
    if (a < start) out.push([a, Math.min(b, start)]);
    if (b > end) out.push([Math.max(a, end) + delta, b + delta]);
  }
  if (added > 0) out.push([start, start + added]);
  return out;
}

/** Array splice without spreading `added` into arguments, which overflows the stack for huge inserts. */
function spliceInto<T>(target: T[], start: number, removed: number, added: readonly T[]): void {
  if (added.length < 10_000) {
    target.splice(start, removed, ...added);
    return;
  }
  const tail = target.slice(start + removed);
  target.length = start;
  for (const x of added) target.push(x);
  for (const x of tail) target.push(x);
}
