// The matching ladder: small pure matchers tried in order, each only if the previous found nothing.
// Every rung demands a unique place; a wrong-place edit is worse than a failed one. Several places
// count as one when every one of them gives the same file (a line repeated back to back).
// Order: exact, trailing whitespace, indentation, blank edges, `...` elision, look-alike characters,
// then the late rungs, each only after all before it found nothing: tabs for spaces (a uniform
// mapping), Unicode normalization (NFC vs NFD), and inner whitespace (unique matches only).
import {
  LineView,
  isBlank,
  isElisionLine,
  lineKey,
  type KeyKind,
} from './match-lines.js';
import { type Offset, buildReplacement, consistentOffset, tabMapping, withForm } from './match-offsets.js';

export type RungName =
  | 'exact'
  | 'trailing_whitespace'
  | 'indentation'
  | 'blank_edges'
  | 'elision'
  | 'unicode'
  | 'tabs'
  | 'normalization'
  | 'inner_whitespace';

export type MatchResult =
  | {
      readonly kind: 'found';
      readonly rung: RungName;
      /** 0-based line range [start, end) of the file that is replaced. */
      readonly start: number;
      readonly end: number;
      readonly replacement: string[];
    }
  /** Candidates are 1-based line numbers, ready for a message. */
  | { readonly kind: 'ambiguous'; readonly rung: RungName; readonly candidates: number[] }
  | { readonly kind: 'none'; readonly hint?: string };

interface BaseRung {
  readonly key: KeyKind;
  readonly indent: boolean | 'tabs';
  /** Only a single candidate counts; several are not a match at all (no in-order pick). */
  readonly uniqueOnly?: boolean;
}

const EXACT: BaseRung = { key: 'exact', indent: false };
const TRAILING: BaseRung = { key: 'trimEnd', indent: false };
const INDENT: BaseRung = { key: 'trim', indent: true };
const FOLD_TRAILING: BaseRung = { key: 'foldTrimEnd', indent: false };
const FOLD_INDENT: BaseRung = { key: 'foldTrim', indent: true };
const TABS: BaseRung = { key: 'trim', indent: 'tabs' };
const NFC: BaseRung = { key: 'nfcTrim', indent: true };
const INNER: BaseRung = { key: 'collapsed', indent: true, uniqueOnly: true };

interface Candidate {
  readonly start: number;
  readonly offset: Offset;
}

/**
 * Every place where SEARCH matches under `rung`, starting at `from` or later. Candidate starts come
 * from the positions of SEARCH's rarest line key, so the cost follows that key's count, not the file.
 */
function findCandidates(view: LineView, search: readonly string[], rung: BaseRung, from = 0): Candidate[] {
  const skeys = search.map((l) => lineKey(rung.key, l));
  const n = search.length;
  const anchor = rarestKey(view, rung.key, skeys);
  const keys = view.keys(rung.key);
  const out: Candidate[] = [];
  for (const p of view.positions(rung.key, skeys[anchor] ?? '')) {
    const i = p - anchor;
    if (i < from || i + n > keys.length) continue;
    let ok = true;
    for (let k = 0; k < n; k++) {
      if (keys[i + k] !== skeys[k]) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const offset =
      rung.indent === 'tabs' ? tabMapping(view.lines, i, search) : rung.indent ? consistentOffset(view.lines, i, search) : { sign: 1 as const, prefix: '' };
    if (offset) out.push({ start: i, offset: rung.key === 'nfcTrim' ? withForm(view.lines, i, n, offset) : offset });
  }
  return out;
}

/** Index of the SEARCH key seen on the fewest file lines (0 for an empty SEARCH). */
function rarestKey(view: LineView, kind: KeyKind, skeys: readonly string[]): number {
  let best = 0;
  let bestCount = Infinity;
  for (let k = 0; k < skeys.length && bestCount > 0; k++) {
    const count = view.estimate(kind, skeys[k] ?? '');
    if (count < bestCount) {
      best = k;
      bestCount = count;
    }
  }
  return best;
}

type Pick = { pick: Candidate } | { ambiguous: number[] } | null;

/** Unique, or the first one at/after the previous block's end in the same file. */
function choose(cands: readonly Candidate[], after: number | null): Pick {
  if (cands.length === 0) return null;
  if (cands.length === 1) return { pick: cands[0] as Candidate };
  if (after !== null) {
    const next = cands.find((c) => c.start >= after);
    if (next) return { pick: next };
  }
  return { ambiguous: cands.map((c) => c.start + 1) };
}

// Comparing outcomes costs the span the candidates cover; beyond these it is not worth it.
const MAX_SAME_OUTCOME_CANDIDATES = 16;
const MAX_SAME_OUTCOME_SPAN = 4000;

/** True when replacing at any of `cands` leaves the same file (SEARCH repeated back to back). */
function sameOutcome(view: LineView, cands: readonly Candidate[], search: readonly string[], replace: readonly string[]): boolean {
  if (cands.length > MAX_SAME_OUTCOME_CANDIDATES) return false;
  const n = search.length;
  const lo = Math.min(...cands.map((c) => c.start));
  const hi = Math.max(...cands.map((c) => c.start + n));
  if (hi - lo > MAX_SAME_OUTCOME_SPAN) return false;
  const lines = view.lines;
  let first: string | undefined;
  for (const c of cands) {
    const slice = lines.slice(c.start, c.start + n);
    const region = [...lines.slice(lo, c.start), ...buildReplacement(slice, search, replace, c.offset), ...lines.slice(c.start + n, hi)].join('\n');
    if (first === undefined) first = region;
    else if (region !== first) return false;
  }
  return true;
}

function tryRungs(
  view: LineView,
  search: readonly string[],
  replace: readonly string[],
  after: number | null,
  rungs: ReadonlyArray<readonly [RungName, BaseRung]>,
): MatchResult | null {
  for (const [name, rung] of rungs) {
    const cands = findCandidates(view, search, rung);
    if (rung.uniqueOnly === true && cands.length !== 1) continue;
    let picked = choose(cands, after);
    if (picked === null) continue;
    if ('ambiguous' in picked && sameOutcome(view, cands, search, replace)) picked = { pick: cands[0] as Candidate };
    if ('ambiguous' in picked) return { kind: 'ambiguous', rung: name, candidates: picked.ambiguous };
    const { start, offset } = picked.pick;
    const end = start + search.length;
    const slice = view.lines.slice(start, end);
    return { kind: 'found', rung: name, start, end, replacement: buildReplacement(slice, search, replace, offset) };
  }
  return null;
}

/** Drops blank lines at both edges of SEARCH, and the same blank edges of REPLACE where it has them. */
function stripBlankEdges(
  search: readonly string[],
  replace: readonly string[],
): { search: string[]; replace: string[] } | null {
  let a = 0;
  let b = search.length;
  while (a < b && isBlank(search[a] ?? '')) a++;
  while (b > a && isBlank(search[b - 1] ?? '')) b--;
  if ((a === 0 && b === search.length) || a === b) return null;
  let ra = 0;
  let rb = replace.length;
  while (ra < a && ra < rb && isBlank(replace[ra] ?? '')) ra++;
  const tail = search.length - b;
  while (replace.length - rb < tail && rb > ra && isBlank(replace[rb - 1] ?? '')) rb--;
  return { search: search.slice(a, b), replace: replace.slice(ra, rb) };
}

const PLAIN: ReadonlyArray<readonly [RungName, BaseRung]> = [
  ['exact', EXACT],
  ['trailing_whitespace', TRAILING],
  ['indentation', INDENT],
];

/**
 * Finds the one place in `file` where `search` belongs and what replaces it.
 * `after` is where the previous block for this file ended (line index in the current text), or null.
 * Pass a LineView kept in step with earlier edits (as the planner does) to reuse its indexes.
 */
export function matchBlock(
  file: readonly string[] | LineView,
  search: readonly string[],
  replace: readonly string[],
  after: number | null = null,
): MatchResult {
  const view = file instanceof LineView ? file : new LineView(file);
  const plain = tryRungs(view, search, replace, after, PLAIN);
  if (plain) return plain;
  const stripped = stripBlankEdges(search, replace);
  if (stripped) {
    const r = tryRungs(view, stripped.search, stripped.replace, after, PLAIN);
    if (r) return r.kind === 'found' || r.kind === 'ambiguous' ? { ...r, rung: 'blank_edges' } : r;
  }
  if (search.some(isElisionLine)) return matchElided(view, search, replace, after);
  const s = stripped ?? { search: [...search], replace: [...replace] };
  const folded = tryRungs(view, s.search, s.replace, after, [
    ['unicode', FOLD_TRAILING],
    ['unicode', FOLD_INDENT],
  ]);
  return folded ?? tryRungs(view, s.search, s.replace, after, LATE) ?? { kind: 'none' };
}

const LATE: ReadonlyArray<readonly [RungName, BaseRung]> = [
  ['tabs', TABS],
  ['normalization', NFC],
  ['inner_whitespace', INNER],
];

function splitPieces(lines: readonly string[]): string[][] {
  const pieces: string[][] = [[]];
  for (const l of lines) {
    if (isElisionLine(l)) pieces.push([]);
    else pieces[pieces.length - 1]?.push(l);
  }
  return pieces;
}

const PIECE_RUNGS: ReadonlyArray<readonly [RungName, BaseRung]> = [
  ...PLAIN,
  ['unicode', FOLD_TRAILING],
  ['unicode', FOLD_INDENT],
];

/**
 * `...` elision: SEARCH and REPLACE split at their elision lines into the same number of pieces.
 * Pieces match in order, each unique after the previous one; the text between pieces is kept.
 */
function matchElided(
  view: LineView,
  search: readonly string[],
  replace: readonly string[],
  after: number | null,
): MatchResult {
  const sp = splitPieces(search);
  const rp = splitPieces(replace);
  if (sp.length !== rp.length) {
    return {
      kind: 'none',
      hint: 'SEARCH and REPLACE must contain the same number of `...` lines, at corresponding places.',
    };
  }
  // Leading/trailing elisions mean "whatever is there": they need nothing inserted on their side.
  const pairs = sp.map((s, i) => ({ s, r: rp[i] ?? [] })).filter((p) => p.s.length > 0 || p.r.length > 0);
  if (pairs.some((p) => p.s.length === 0)) {
    return { kind: 'none', hint: 'Each `...` in REPLACE must sit between lines that are also in SEARCH.' };
  }
  if (pairs.length === 0) return { kind: 'none' };
  const out: string[] = [];
  let start = -1;
  let cursor = 0;
  for (const [idx, p] of pairs.entries()) {
    const r = matchPiece(view, p.s, p.r, idx === 0 ? null : cursor, idx === 0 ? after : null);
    if (r.kind !== 'found') return r.kind === 'ambiguous' ? { ...r, rung: 'elision' } : r;
    if (idx === 0) start = r.start;
    else out.push(...view.lines.slice(cursor, r.start));
    out.push(...r.replacement);
    cursor = r.end;
  }
  return { kind: 'found', rung: 'elision', start, end: cursor, replacement: out };
}

/** One piece: the first piece follows the block rules; later ones must be unique after `from`. */
function matchPiece(
  view: LineView,
  search: readonly string[],
  replace: readonly string[],
  from: number | null,
  after: number | null,
): MatchResult {
  if (from === null) return tryRungs(view, search, replace, after, PIECE_RUNGS) ?? { kind: 'none' };
  for (const [name, rung] of PIECE_RUNGS) {
    const cands = findCandidates(view, search, rung, from);
    if (cands.length === 0) continue;
    if (cands.length > 1) return { kind: 'ambiguous', rung: name, candidates: cands.map((c) => c.start + 1) };
    const c = cands[0] as Candidate;
    const slice = view.lines.slice(c.start, c.start + search.length);
    return {
      kind: 'found',
      rung: name,
      start: c.start,
      end: c.start + search.length,
      replacement: buildReplacement(slice, search, replace, c.offset),
    };
  }
  return { kind: 'none' };
}

/**
 * How many places each late rung finds for SEARCH (after the blank-edge strip the ladder applies), for
 * the differential test that shows each late rung decides only when everything before it found nothing.
 */
export function lateRungCounts(file: readonly string[] | LineView, search: readonly string[]): Record<'tabs' | 'normalization' | 'inner_whitespace', number> {
  const view = file instanceof LineView ? file : new LineView(file);
  const s = stripBlankEdges(search, [])?.search ?? search;
  const counts = { tabs: 0, normalization: 0, inner_whitespace: 0 };
  for (const [name, rung] of LATE) {
    if (name === 'tabs' || name === 'normalization' || name === 'inner_whitespace') counts[name] = findCandidates(view, s, rung).length;
  }
  return counts;
}
