// Shows the model the code around the lines a check reported: numbered lines, the reported ones
// marked with ">", the headers of the enclosing blocks (found by indentation) kept, the rest elided.
import { normalizePath } from '../platform/repo-path.js';

export interface CodeContextOptions {
  /** Lines shown before and after each reported line (default 2). */
  readonly around?: number;
  /** At most this many reported lines get context (default 20); the rest are dropped. */
  readonly maxReported?: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The 1-based line numbers `output` reports for `path` (repository-relative), sorted and unique.
 * Understands `path:12`, `path:12:3`, `path(12,3)` and Python's `File "path", line 12`, with the
 * path possibly written absolute or with a leading "./".
 */
export function findReportedLines(output: string, path: string): number[] {
  const file = escapeRegExp(normalizePath(path));
  const pattern = new RegExp(`(?:^|[\\s"'(/\\\\])${file}(?::(\\d+)|\\((\\d+),\\d+\\)|", line (\\d+))`, 'gm');
  const lines = new Set<number>();
  for (const match of output.matchAll(pattern)) {
    const line = Number(match[1] ?? match[2] ?? match[3]);
    if (line > 0) lines.add(line);
  }
  return [...lines].sort((a, b) => a - b);
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function isHeaderCandidate(line: string): boolean {
  const trimmed = line.trim();
  // Closing brackets and comments sit at a block's indentation without opening it.
  return trimmed !== '' && !/^[)\]}]/.test(trimmed) && !/^(#|\/\/|\/\*|\*)/.test(trimmed);
}

/** 0-based indexes of the lines that open the blocks enclosing `index`, nearest last. */
export function enclosingHeaders(lines: readonly string[], index: number): number[] {
  const headers: number[] = [];
  let current = lines[index];
  // A blank reported line takes the indentation of the next non-blank line above it.
  for (let i = index; current !== undefined && current.trim() === '' && i > 0; i--) current = lines[i - 1];
  let indent = current === undefined ? 0 : indentOf(current);
  for (let i = index - 1; i >= 0 && indent > 0; i--) {
    const line = lines[i] ?? '';
    if (!isHeaderCandidate(line) || indentOf(line) >= indent) continue;
    headers.unshift(i);
    indent = indentOf(line);
  }
  return headers;
}

/** The numbered excerpt of `text` for the reported 1-based `lines`; '' when none is in the file. */
export function renderCodeContext(text: string, lines: readonly number[], options: CodeContextOptions = {}): string {
  const fileLines = text.split(/\r?\n/);
  if (fileLines.length > 1 && fileLines[fileLines.length - 1] === '') fileLines.pop();
  const around = options.around ?? 2;
  const reported = new Set(
    lines.filter((line) => line >= 1 && line <= fileLines.length).slice(0, options.maxReported ?? 20),
  );
  if (reported.size === 0) return '';
  const shown = new Set<number>();
  for (const line of reported) {
    const index = line - 1;
    for (const header of enclosingHeaders(fileLines, index)) shown.add(header);
    for (let i = Math.max(0, index - around); i <= Math.min(fileLines.length - 1, index + around); i++) shown.add(i);
  }
  const width = String(Math.max(...shown) + 1).length;
  const out: string[] = [];
  let previous = -1;
  for (const index of [...shown].sort((a, b) => a - b)) {
    if (index > previous + 1) out.push('...');
    const mark = reported.has(index + 1) ? '>' : ' ';
    out.push(`${mark}${String(index + 1).padStart(width)} | ${fileLines[index] ?? ''}`.trimEnd());
    previous = index;
  }
  if (previous < fileLines.length - 1) out.push('...');
  return out.join('\n');
}
