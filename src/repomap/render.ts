// Renders chosen definitions as the repo map text: per file its path, then each definition's line
// inside the header lines of its enclosing scopes, gaps marked with an ASCII elision line.

import { definitionsOf, type FileTags } from './packed-tags.js';
import type { Tag } from './tag.js';
import type { RankedItem } from './rank.js';

const ELISION_MARKER = '|...';
const LINE_PREFIX = '|';

export interface MapRendererOptions {
  /** File text by repository-relative path; undefined when it cannot be read (listed by path only). */
  readonly readFile: (path: string) => string | undefined;
  /** All tags per file, used to find the scopes (other definitions) that enclose a chosen one. */
  readonly tagsByFile: ReadonlyMap<string, FileTags>;
  /** Longer lines are cut to this many characters and end in "...". */
  readonly maxLineLength?: number;
  /**
   * The files an earlier renderer read (its `kept()`): a file whose tags are the very same object
   * (so the tag cache saw the same size and mtime) is not read and split again.
   */
  readonly previous?: ReadonlyMap<string, KeptView>;
}

export interface MapRenderer {
  /** One block per file, sorted by path; the map is their concatenation. */
  blocks(items: readonly RankedItem[]): string[];
  render(items: readonly RankedItem[]): string;
  /** The files this renderer read or took over, for the next one's `previous`. */
  kept(): ReadonlyMap<string, KeptView>;
}

/** A file's view and the tags it was made with. */
export interface KeptView {
  readonly tags: FileTags | undefined;
  readonly view: FileView;
}

export interface FileView {
  readonly lines: readonly string[] | undefined;
  /** Definitions sorted by start line, for scope lookup. */
  readonly defs: readonly Tag[];
  /** Index of the last line with content, so a trailing elision is only marked when something follows. */
  readonly lastContentLine: number;
}

function cutLine(text: string, max: number): string {
  const trimmed = text.trimEnd();
  if (trimmed.length <= max) return trimmed;
  let cut = trimmed.slice(0, max);
  // Never leave half of a surrogate pair behind.
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/** Lines of the definition and of every definition whose range strictly contains it. */
function linesFor(tag: Tag, defs: readonly Tag[]): number[] {
  const lines = [tag.line];
  for (const scope of defs) {
    if (scope.line >= tag.line) break;
    if (scope.endLine >= Math.max(tag.line, tag.endLine)) lines.push(scope.line);
  }
  return lines;
}

function renderFile(path: string, shown: ReadonlySet<number>, view: FileView, maxLineLength: number): string {
  const lines = view.lines;
  const wanted = [...shown].filter((n) => lines !== undefined && n >= 0 && n < lines.length).sort((a, b) => a - b);
  if (lines === undefined || wanted.length === 0) return `${path}\n`;
  const out = [`${path}:`];
  let previous = -1;
  for (const n of wanted) {
    if (n > previous + 1) out.push(ELISION_MARKER);
    out.push(LINE_PREFIX + cutLine(lines[n] ?? '', maxLineLength));
    previous = n;
  }
  if (previous < view.lastContentLine) out.push(ELISION_MARKER);
  return `${out.join('\n')}\n`;
}

/** Keeps each file's text and scopes between renders: budget fitting renders many prefixes. */
export function createMapRenderer(options: MapRendererOptions): MapRenderer {
  const maxLineLength = options.maxLineLength ?? 100;
  const views = new Map<string, KeptView>();
  const viewOf = (path: string): FileView => {
    const known = views.get(path);
    if (known !== undefined) return known.view;
    const tags = options.tagsByFile.get(path);
    const earlier = options.previous?.get(path);
    // An unreadable file is tried again: its permissions may have changed since.
    if (earlier !== undefined && earlier.tags === tags && tags !== undefined && earlier.view.lines !== undefined) {
      views.set(path, earlier);
      return earlier.view;
    }
    const text = options.readFile(path);
    const defs = definitionsOf(path, tags ?? [])
      .sort((a, b) => a.line - b.line || b.endLine - a.endLine);
    const lines = text === undefined ? undefined : text.split(/\r?\n/);
    let lastContentLine = (lines?.length ?? 0) - 1;
    while (lines !== undefined && lastContentLine >= 0 && (lines[lastContentLine] ?? '').trim() === '') lastContentLine--;
    const view = { lines, defs, lastContentLine };
    views.set(path, { tags, view });
    return view;
  };

  const blocks = (items: readonly RankedItem[]): string[] => {
    const shownByFile = new Map<string, Set<number>>();
    for (const item of items) {
      const path = item.kind === 'def' ? item.tag.path : item.path;
      const shown = shownByFile.get(path) ?? new Set<number>();
      shownByFile.set(path, shown);
      if (item.kind === 'def') for (const line of linesFor(item.tag, viewOf(path).defs)) shown.add(line);
    }
    const paths = [...shownByFile.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return paths.map((path) => renderFile(path, shownByFile.get(path) ?? new Set(), viewOf(path), maxLineLength));
  };
  return { blocks, render: (items) => blocks(items).join(''), kept: () => views };
}

/** One-shot rendering; see createMapRenderer. */
export function renderMap(items: readonly RankedItem[], options: MapRendererOptions): string {
  return createMapRenderer(options).render(items);
}
