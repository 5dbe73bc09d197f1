// Parser for the `whole` format: a file name line, then the complete new file in a fence.
//
// Rules:
// - A file listing is a fence at column 0 that is named: the file name on the fence line after the
//   language, on the non-blank line before the fence (same leniency as `diff`), or a chat file's path
//   alone on the first line inside the fence.
// - A fence without a name is the only chat file's listing only when it is the reply's one column-0
//   listing. Otherwise unnamed fences are examples (expected output, a config snippet) and so are
//   indented fences (``` under "2. Then run:") and shell blocks: never file contents. With no named
//   listing and no single chat file, unnamed listings are reported to the model.
// - Where the listing ends follows `findFenceClose`: a ``` opener counts nested fences (a fence
//   with a language opens, a bare one closes), a longer opener (````) or `<source>` is closed only by
//   its own closer. A listing that is never closed is reported, never written: a cut-off reply would
//   otherwise truncate the file.

import { type FenceOpen, type ReplyLine, SOURCE_FENCE, findFenceClose, joinLines, parseFenceOpen, splitReply } from './fences.js';
import { filenameFromInfo, filenameFromLine, filenameFromProse, unreadableFileName } from './filename.js';
import { isShellFence, readShellBlock } from './shell-commands.js';
import type { Edit, ParseContext, ParseProblem, ParseResult } from './types.js';

interface Unnamed {
  readonly open: FenceOpen;
  readonly at: number;
  readonly end: number;
  /** The line above names a file tandem could not read as a path: never the only chat file's listing. */
  readonly unreadable?: { readonly line: number; readonly name: string };
}

export function parseWhole(reply: string, ctx: ParseContext): ParseResult {
  const lines = splitReply(reply);
  const edits: Edit[] = [];
  const problems: ParseProblem[] = [];
  const shellCommands: string[] = [];
  const unnamed: Unnamed[] = [];
  let lastEnd = -1;
  let i = 0;
  while (i < lines.length) {
    const bare = lines[i]?.bare ?? '';
    const open = parseFenceOpen(bare);
    if (!open) {
      i++;
      continue;
    }
    const shell = isShellFence(open) ? readShellBlock(lines, i, open, () => false) : undefined;
    if (shell) {
      shellCommands.push(...shell.commands);
      lastEnd = shell.end;
      i = shell.end + 1;
      continue;
    }
    const end = findFenceClose(lines, i, open);
    if (/^\s/.test(bare)) {
      // An indented fence is an example inside prose or a list item: skip it whole.
      i = end < 0 ? i + 1 : end + 1;
      continue;
    }
    const onFence = filenameFromInfo(open.info, ctx.chatFiles);
    const named = onFence === undefined ? nameAbove(lines, i, lastEnd, ctx.chatFiles) : { path: onFence, start: i };
    const inside = named === undefined ? chatFileOnFirstLine(lines, i, ctx.chatFiles) : undefined;
    const path = named?.path ?? inside;
    if (end < 0) {
      const what = path === undefined ? 'The file listing' : `The listing of ${path}`;
      const closer = closerOf(open);
      problems.push({
        line: i + 1,
        message: `${what} starting at line ${i + 1} has no closing ${closer} line, so it was not written (the reply may have been cut off). Resend the complete file, ending with ${closer} on its own line.`,
      });
      break;
    }
    if (path === undefined) {
      const unreadable = unreadableAbove(lines, i, lastEnd, ctx.chatFiles);
      unnamed.push({ open, at: i, end, ...(unreadable ? { unreadable } : {}) });
    } else {
      const first = inside === undefined ? i + 1 : i + 2;
      edits.push({ kind: 'whole', path, content: joinLines(lines, first, end), index: edits.length, source: joinLines(lines, named?.start ?? i, end + 1) });
    }
    lastEnd = end;
    i = end + 1;
  }
  if (edits.length === 0) placeUnnamed(lines, unnamed, ctx, { edits, problems });
  return { edits, shellCommands, problems };
}

function closerOf(open: FenceOpen): string {
  return open.fence === SOURCE_FENCE ? '</source>' : open.fence;
}

/** Unnamed column-0 listings when nothing was named: the one chat file's, or problems for the model. */
function placeUnnamed(lines: readonly ReplyLine[], unnamed: readonly Unnamed[], ctx: ParseContext, out: { edits: Edit[]; problems: ParseProblem[] }): void {
  const only = ctx.chatFiles.length === 1 ? ctx.chatFiles[0] : undefined;
  const single = unnamed.length === 1 ? unnamed[0] : undefined;
  if (single && only !== undefined && single.unreadable === undefined) {
    out.edits.push({ kind: 'whole', path: only, content: joinLines(lines, single.at + 1, single.end), index: 0, source: joinLines(lines, single.at, single.end + 1) });
    return;
  }
  for (const u of unnamed) {
    if (u.unreadable) {
      out.problems.push({
        line: u.at + 1,
        message: `tandem could not read \`${u.unreadable.name}\` (line ${u.unreadable.line}) as a file name, so the listing starting at line ${u.at + 1} was not written. Put the file's path alone on the line before the opening ${u.open.fence}, in backticks if it contains spaces, and resend the complete file.`,
      });
      continue;
    }
    out.problems.push({
      line: u.at + 1,
      message: `The file listing starting at line ${u.at + 1} does not say which file it is. Put the file's full path alone on the line before the opening ${u.open.fence} and resend the complete file.`,
    });
  }
}

/**
 * The diff-fenced habit of naming the file on the first line inside the fence. Only a chat
 * file's exact path counts, since any other first line may be the file's own content.
 */
function chatFileOnFirstLine(lines: readonly ReplyLine[], fence: number, chatFiles: readonly string[]): string | undefined {
  const name = filenameFromLine(lines[fence + 1]?.bare ?? '', chatFiles);
  return name !== undefined && chatFiles.includes(name) ? name : undefined;
}

/** The non-blank line above the fence, when it names a file tandem cannot read as a path. */
function unreadableAbove(lines: readonly ReplyLine[], fence: number, floor: number, chatFiles: readonly string[]): Unnamed['unreadable'] {
  let k = fence - 1;
  while (k > floor && (lines[k]?.bare ?? '').trim() === '') k--;
  if (k <= floor) return undefined;
  const name = unreadableFileName(lines[k]?.bare ?? '', chatFiles);
  return name === undefined ? undefined : { line: k + 1, name };
}

function nameAbove(
  lines: readonly ReplyLine[],
  fence: number,
  floor: number,
  chatFiles: readonly string[],
): { path: string; start: number } | undefined {
  let k = fence - 1;
  while (k > floor && (lines[k]?.bare ?? '').trim() === '') k--;
  if (k <= floor) return undefined;
  const line = lines[k]?.bare ?? '';
  const path = filenameFromLine(line, chatFiles) ?? filenameFromProse(line, chatFiles);
  return path === undefined ? undefined : { path, start: k };
}
