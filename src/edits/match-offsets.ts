// How a matched place relates to SEARCH, and REPLACE written back in the file's own terms: an
// indentation offset, a tab width (tabs for spaces or the reverse), or the file's Unicode form.
import { isBlank, leadingWhitespace } from './match-lines.js';

/**
 * How one candidate relates to SEARCH: the indentation to add (+) or remove (-), or for the tabs rung
 * how many spaces one tab stands for and which side uses tabs.
 */
export interface Offset {
  readonly sign: 1 | -1;
  readonly prefix: string;
  readonly tabs?: { readonly width: number; readonly fileHasTabs: boolean };
  /** The file's text is decomposed (NFD): new lines are written the same way. */
  readonly nfd?: boolean;
}

/** The leading white space of the file line and of SEARCH line `k` against it; null for a blank SEARCH line. */
function indentsAt(file: readonly string[], at: number, search: readonly string[], k: number): [string, string] | null {
  const s = search[k] ?? '';
  return isBlank(s) ? null : [leadingWhitespace(file[at + k] ?? ''), leadingWhitespace(s)];
}

/** The one indentation offset that turns every non-blank SEARCH line into the file line, if any. */
export function consistentOffset(
  file: readonly string[],
  at: number,
  search: readonly string[],
): Offset | null {
  let found: Offset | null = null;
  for (let k = 0; k < search.length; k++) {
    const indents = indentsAt(file, at, search, k);
    if (!indents) continue;
    const [fi, si] = indents;
    let here: Offset;
    if (fi.endsWith(si)) here = { sign: 1, prefix: fi.slice(0, fi.length - si.length) };
    else if (si.endsWith(fi)) here = { sign: -1, prefix: si.slice(0, si.length - fi.length) };
    else return null;
    if (found === null) found = here;
    else if (found.prefix !== here.prefix || (found.sign !== here.sign && here.prefix !== '')) {
      return null;
    }
  }
  return found ?? { sign: 1, prefix: '' };
}

/**
 * Tabs on one side, spaces on the other, with one width for every non-blank line: the file's
 * indentation is `n` tabs exactly where SEARCH's is `n * width` spaces (or the reverse).
 */
export function tabMapping(file: readonly string[], at: number, search: readonly string[]): Offset | null {
  let width = 0;
  let fileHasTabs: boolean | null = null;
  for (let k = 0; k < search.length; k++) {
    const indents = indentsAt(file, at, search, k);
    if (!indents) continue;
    const [fi, si] = indents;
    if (fi === si && fi === '') continue;
    const tabsSide = /^\t+$/.test(fi) && /^ +$/.test(si) ? true : /^ +$/.test(fi) && /^\t+$/.test(si) ? false : null;
    if (tabsSide === null || (fileHasTabs !== null && tabsSide !== fileHasTabs)) return null;
    fileHasTabs = tabsSide;
    const [tabs, spaces] = tabsSide ? [fi.length, si.length] : [si.length, fi.length];
    if (spaces % tabs !== 0 || (width !== 0 && spaces / tabs !== width)) return null;
    width = spaces / tabs;
  }
  return fileHasTabs === null ? null : { sign: 1, prefix: '', tabs: { width, fileHasTabs } };
}

/** Marks an NFD file slice, so the lines the model changes keep the file's normalization. */
export function withForm(file: readonly string[], at: number, n: number, offset: Offset): Offset {
  for (let k = at; k < at + n; k++) {
    const line = file[k] ?? '';
    if (line !== line.normalize('NFC')) return { ...offset, nfd: true };
  }
  return offset;
}

/** A REPLACE line's indentation in the file's own characters: tabs for spaces or spaces for tabs. */
function retab(line: string, tabs: NonNullable<Offset['tabs']>): string {
  const lead = leadingWhitespace(line);
  const rest = line.slice(lead.length);
  if (tabs.fileHasTabs) {
    const spaces = lead.replace(/\t/g, ' '.repeat(tabs.width)).length;
    return '\t'.repeat(Math.floor(spaces / tabs.width)) + ' '.repeat(spaces % tabs.width) + rest;
  }
  return lead.replace(/\t/g, ' '.repeat(tabs.width)) + rest;
}

function reindent(line: string, offset: Offset): string {
  if (offset.nfd === true) return reindent(line.normalize('NFD'), { ...offset, nfd: false });
  if (offset.tabs && !isBlank(line)) return retab(line, offset.tabs);
  if (offset.prefix === '' || isBlank(line)) return line;
  if (offset.sign === 1) return offset.prefix + line;
  if (line.startsWith(offset.prefix)) return line.slice(offset.prefix.length);
  const lead = leadingWhitespace(line);
  return line.slice(Math.min(lead.length, offset.prefix.length));
}

/**
 * REPLACE lines become file lines. A REPLACE line identical to a SEARCH line is an unchanged
 * line: it takes the file's own text, so trailing spaces and smart quotes the model lost survive.
 */
export function buildReplacement(
  fileSlice: readonly string[],
  search: readonly string[],
  replace: readonly string[],
  offset: Offset,
): string[] {
  const firstIndex = new Map<string, number>();
  search.forEach((s, j) => {
    if (!firstIndex.has(s)) firstIndex.set(s, j);
  });
  return replace.map((r) => {
    const j = firstIndex.get(r);
    if (j !== undefined && !isBlank(r)) return fileSlice[j] ?? r;
    return reindent(r, offset);
  });
}
