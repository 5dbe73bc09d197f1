// Parser for the `udiff` format: `--- a/x` / `+++ b/x` headers and `@@ ... @@` hunks, usually
// in a ```diff fence (unfenced is accepted too).
//
// Rules:
// - Line numbers in hunk headers are ignored; `@@ @@` alone is fine, and hunk lines right after
//   a file header count even without an `@@` line.
// - Each hunk becomes one ReplaceEdit: SEARCH is its context and `-` lines, REPLACE its context
//   and `+` lines, in order. An empty line counts as an empty context line (models drop the
//   space), except at the end of a hunk. `\ No newline at end of file` is ignored.
// - A hunk ends at the next `@@`, the next file header, a fence at the start of a line, or any
//   other line that does not start with ` `, `-`, `+` or `\`.
// - `--- /dev/null` creates a file (SEARCH is empty). `+++ /dev/null` would delete one: that is
//   not supported and is reported to the model. Hunks that change nothing are dropped.
// - `a/` and `b/` prefixes are removed unless the path with the prefix is a chat file.

import { type ReplyLine, parseFenceOpen, splitReply } from './fences.js';
import { normalizePath, resolvePath } from './filename.js';
import { isShellFence, readShellBlock } from './shell-commands.js';
import type { Edit, ParseContext, ParseProblem, ParseResult } from './types.js';

interface FileTarget {
  /** undefined when the header deletes the file. */
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
      target = readHeader(lines, i, ctx.chatFiles);
      if (target.path === undefined) {
        problems.push({
          line: i + 1,
          message: `Line ${i + 2} "+++ ${NULL_PATH}" deletes a file, which is not supported. Ask the user to delete the file instead, and do not resend this diff.`,
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

function readHeader(lines: readonly ReplyLine[], i: number, chatFiles: readonly string[]): FileTarget {
  const oldPath = headerPath((lines[i]?.bare ?? '').slice(4), 'a/', chatFiles);
  const newPath = headerPath((lines[i + 1]?.bare ?? '').slice(4), 'b/', chatFiles);
  const header = `${lines[i]?.bare ?? ''}\n${lines[i + 1]?.bare ?? ''}\n`;
  if (newPath === NULL_PATH) return { path: undefined, isNew: false, header };
  return { path: resolvePath(newPath, chatFiles), isNew: oldPath === NULL_PATH, header };
}

/** True for a line that can belong to a hunk body. */
function isHunkLine(bare: string, first: boolean): boolean {
  if (bare === '') return !first;
  const c = bare[0];
  return c === ' ' || c === '+' || c === '-' || c === '\\';
}

function readHunk(lines: readonly ReplyLine[], start: number): Hunk {
  let end = start;
  while (end < lines.length) {
    const bare = lines[end]?.bare ?? '';
    if (bare.startsWith('@@') || isFileHeader(lines, end) || bare.startsWith('diff --git ')) break;
    if (!isHunkLine(bare, false)) break;
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
  for (const line of hunk.body) {
    const text = `${line.bare.slice(1)}\n`;
    const c = line.bare[0];
    if (c === '\\') continue;
    if (c === '-') search += text;
    if (c === '+') replace += text;
    if (c === '-' || c === '+') changes++;
    if (c === ' ' || c === undefined) {
      search += text;
      replace += text;
    }
  }
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
  sink.edits.push({
    kind: 'replace',
    path,
    search: target?.isNew === true ? '' : search,
    replace,
    index: sink.edits.length,
    source,
  });
  return hunk.end;
}
