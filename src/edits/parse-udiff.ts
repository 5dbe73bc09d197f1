// Parser for the `udiff` format: `--- a/x` / `+++ b/x` headers and `@@ ... @@` hunks, usually
// in a ```diff fence (unfenced is accepted too).
//
// Rules:
// - Line numbers in hunk headers are ignored; `@@ @@` alone is fine, and hunk lines right after
//   a file header count even without an `@@` line.
// - Each hunk becomes one ReplaceEdit: SEARCH is its context and `-` lines, REPLACE its context
//   and `+` lines, in order. An empty line counts as an empty context line (models drop the
//   space), except at the end of a hunk. So does a line with no prefix when the hunk goes on after it
//   (a dropped space or a wrapped line): it is context, and the lines after it still count.
// - `\ No newline at end of file` after a `-` line says the old file had none, after a `+` line that
//   the new one has none (after a context line: both); the planner honours it for the new side.
// - A hunk ends at the next `@@`, the next file header, a fence at the start of a line, or any
//   other line without a ` `, `-`, `+` or `\` prefix that no hunk line follows.
// - `--- /dev/null` creates a file; over an existing file the planner applies it as an edit when the hunk
//   has old lines that match, and refuses it when it would replace the file's text.
//   `+++ /dev/null` would delete one: not supported, reported to the model. `---` and `+++` naming
//   different files (a rename) are reported and nothing of that diff is applied, unless both names
//   resolve to the same chat file. A header with no hunk after it is reported. Hunks that change
//   nothing are dropped.
// - `a/` and `b/` prefixes are removed unless the path with the prefix is a chat file.

import { type ReplyLine, parseFenceOpen, splitReply } from './fences.js';
import { normalizePath, resolvePath } from './filename.js';
import { isShellFence, readShellBlock } from './shell-commands.js';
import type { Edit, ParseContext, ParseProblem, ParseResult } from './types.js';

interface FileTarget {
  /** undefined when the header deletes or renames the file (reported; its hunks are skipped). */
  readonly path: string | undefined;
  readonly isNew: boolean;
  /** The header lines as written, quoted in each hunk's source. */
  readonly header: string;
}

interface Hunk {
  readonly body: readonly ReplyLine[];
  /** Index after the hunk's last line. */
  readonly end: number;
}

const NULL_PATH = '/dev/null';

export function parseUdiff(reply: string, ctx: ParseContext): ParseResult {
  const lines = splitReply(reply);
  const edits: Edit[] = [];
  const problems: ParseProblem[] = [];
  const shellCommands: string[] = [];
  let target: FileTarget | undefined;
  let i = 0;
  while (i < lines.length) {
    const bare = lines[i]?.bare ?? '';
    if (isFileHeader(lines, i)) {
      const header = readHeader(lines, i, ctx.chatFiles);
      target = header.target;
      if (header.problem !== undefined) problems.push({ line: i + 1, message: header.problem });
      else if (!hunkFollows(lines, i + 2)) {
        problems.push({
          line: i + 1,
          message: `The diff for ${target.path ?? 'a file'} at line ${i + 1} has its "---" and "+++" lines but no hunks after them, so nothing was changed. Resend it with its hunks: an "@@ ... @@" line, then the context lines (starting with a space) and the "-" and "+" lines.`,
        });
      }
      i += 2;
      if (!isHunkLine(lines[i]?.bare ?? '', true)) continue;
      i = addHunk(readHunk(lines, i), '', target, i, { edits, problems, ctx });
      continue;
    }
    if (bare.startsWith('@@')) {
      i = addHunk(readHunk(lines, i + 1), lines[i]?.text ?? '', target, i, { edits, problems, ctx });
      continue;
    }
    const open = parseFenceOpen(bare);
    const shell = open && isShellFence(open) ? readShellBlock(lines, i, open, isDiffLine) : undefined;
    if (shell) {
      shellCommands.push(...shell.commands);
      i = shell.end + 1;
      continue;
    }
    i++;
  }
  return { edits, shellCommands, problems };
}

function isDiffLine(bare: string): boolean {
  return bare.startsWith('@@') || bare.startsWith('--- ') || bare.startsWith('+++ ');
}

function isFileHeader(lines: readonly ReplyLine[], i: number): boolean {
  return (lines[i]?.bare ?? '').startsWith('--- ') && (lines[i + 1]?.bare ?? '').startsWith('+++ ');
}

function headerPath(raw: string, prefix: string, chatFiles: readonly string[]): string {
  let p = (raw.split('\t')[0] ?? '').trim();
  if (/^".*"$/.test(p)) p = p.slice(1, -1);
  p = normalizePath(p);
  if (p === NULL_PATH || chatFiles.includes(p)) return p;
  return p.startsWith(prefix) ? p.slice(prefix.length) : p;
}

function readHeader(lines: readonly ReplyLine[], i: number, chatFiles: readonly string[]): { target: FileTarget; problem?: string } {
  const oldPath = headerPath((lines[i]?.bare ?? '').slice(4), 'a/', chatFiles);
  const newPath = headerPath((lines[i + 1]?.bare ?? '').slice(4), 'b/', chatFiles);
  const header = `${lines[i]?.bare ?? ''}\n${lines[i + 1]?.bare ?? ''}\n`;
  if (newPath === NULL_PATH) {
    const problem = `Line ${i + 2} "+++ ${NULL_PATH}" deletes a file, which is not supported. Ask the user to delete the file instead, and do not resend this diff.`;
    return { target: { path: undefined, isNew: false, header }, problem };
  }
  const path = resolvePath(newPath, chatFiles);
  const from = oldPath === NULL_PATH ? NULL_PATH : resolvePath(oldPath, chatFiles);
  if (from !== NULL_PATH && from !== path) {
    const problem = `Lines ${i + 1}-${i + 2} name two different files, ${from} on the "---" line and ${path} on the "+++" line. Renaming a file is not supported, so nothing of this diff was applied. To change ${from}, write "--- a/${from}" and "+++ b/${from}"; to create ${path}, write "--- ${NULL_PATH}" and "+++ b/${path}" with every line added; ask the user to rename or delete files.`;
    return { target: { path: undefined, isNew: false, header }, problem };
  }
  return { target: { path, isNew: oldPath === NULL_PATH, header } };
}

/** True when a hunk (an `@@` line or hunk lines) starts at `i`, after blank lines. */
function hunkFollows(lines: readonly ReplyLine[], i: number): boolean {
  let j = i;
  while (j < lines.length && (lines[j]?.bare ?? '') === '') j++;
  const bare = lines[j]?.bare ?? '';
  return bare.startsWith('@@') || (isHunkLine(bare, true) && !isFileHeader(lines, j));
}

/** True for a line that can belong to a hunk body. */
function isHunkLine(bare: string, first: boolean): boolean {
  if (bare === '') return !first;
  const c = bare[0];
  return c === ' ' || c === '+' || c === '-' || c === '\\';
}

// A dropped prefix or a wrapped line is a few lines at most; a longer run is prose after the diff.
const MAX_UNPREFIXED_RUN = 3;

function endsHunk(lines: readonly ReplyLine[], i: number): boolean {
  const bare = lines[i]?.bare ?? '';
  const c = bare[0];
  // Only a fence at the start of the line closes the diff's own fence; " ```" is a context line.
  if ((c === '`' || c === '~' || c === '<') && parseFenceOpen(bare) !== undefined) return true;
  return bare.startsWith('@@') || bare.startsWith('diff --git ') || isFileHeader(lines, i);
}

/** Lines without a prefix at `i` that the hunk continues after: how many, or 0 when it ends here. */
function unprefixedRun(lines: readonly ReplyLine[], i: number): number {
  let j = i;
  while (j < lines.length && j - i <= MAX_UNPREFIXED_RUN && !endsHunk(lines, j) && !isHunkLine(lines[j]?.bare ?? '', false)) j++;
  if (j === i || j - i > MAX_UNPREFIXED_RUN || j >= lines.length || endsHunk(lines, j)) return 0;
  const next = lines[j]?.bare ?? '';
  // The hunk goes on only with a real hunk line, not with a blank one.
  return next !== '' ? j - i : 0;
}

function readHunk(lines: readonly ReplyLine[], start: number): Hunk {
  let end = start;
  while (end < lines.length) {
    if (endsHunk(lines, end)) break;
    if (!isHunkLine(lines[end]?.bare ?? '', false)) {
      const run = unprefixedRun(lines, end);
      if (run === 0) break;
      end += run;
      continue;
    }
    end++;
  }
  let last = end;
  // Blank lines after a hunk are spacing before the prose that follows, not context.
  while (last > start && (lines[last - 1]?.bare ?? '') === '') last--;
  return { body: lines.slice(start, last), end };
}

interface Sink {
  readonly edits: Edit[];
  readonly problems: ParseProblem[];
  readonly ctx: ParseContext;
}

/** Turns a hunk into an edit (or a problem); returns the index to continue from. */
function addHunk(hunk: Hunk, atLine: string, target: FileTarget | undefined, at: number, sink: Sink): number {
  let search = '';
  let replace = '';
  let changes = 0;
  let previous: string | undefined;
  let oldEndsBare = false;
  let newEndsBare = false;
  for (const line of hunk.body) {
    const c = line.bare[0];
    if (c === '\\') {
      oldEndsBare ||= previous !== '+';
      newEndsBare ||= previous !== '-';
      continue;
    }
    previous = c === '-' || c === '+' ? c : ' ';
    const text = c === '-' || c === '+' || c === ' ' ? `${line.bare.slice(1)}\n` : `${line.bare}\n`;
    if (c === '-') search += text;
    if (c === '+') replace += text;
    if (c === '-' || c === '+') changes++;
    if (c !== '-' && c !== '+') {
      search += text;
      replace += text;
    }
  }
  // Only the new side's final newline matters: the planner writes that one.
  const finalNewline = newEndsBare ? false : oldEndsBare ? true : undefined;
  if (changes === 0 || target?.path === undefined && target !== undefined) return hunk.end;
  const only = sink.ctx.chatFiles.length === 1 ? sink.ctx.chatFiles[0] : undefined;
  const path = target?.path ?? only;
  if (path === undefined) {
    sink.problems.push({
      line: at + 1,
      message: `The hunk at line ${at + 1} has no "--- a/path" and "+++ b/path" lines before it, so it is unclear which file it edits. Resend it with both header lines.`,
    });
    return hunk.end;
  }
  const source = (target?.header ?? '') + atLine + hunk.body.map((l) => `${l.bare}\n`).join('');
  const isNew = target?.isNew === true;
  sink.edits.push({
    kind: 'replace',
    path,
    // The old side stays even for `--- /dev/null`: when it matches an existing file the hunk edits it.
    search,
    replace,
    index: sink.edits.length,
    source,
    ...(isNew ? { createsFile: true } : {}),
    ...(finalNewline === undefined ? {} : { finalNewline }),
  });
  return hunk.end;
}
