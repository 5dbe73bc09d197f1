// Parser for the `whole` format: a file name line, then the complete new file in a fence.
//
// Rules:
// - Every fence that is not a shell block is a file listing. Its file name is on the fence line
//   after the language, or on the non-blank line before the fence (same leniency as `diff`), or,
//   failing both, a chat file's path alone on the first line inside the fence.
// - A fence without a file name belongs to the only chat file; with several chat files it is
//   reported to the model.
// - Where the listing ends follows `findFenceClose`: a ``` opener counts nested fences (a fence
//   with a language opens, a bare one closes), a longer opener (````) is closed only by a bare
//   fence at least as long. A listing that is never closed is reported, never written: a cut-off
//   reply would otherwise truncate the file.

import { type ReplyLine, findFenceClose, joinLines, parseFenceOpen, splitReply } from './fences.js';
import { filenameFromInfo, filenameFromLine, filenameFromProse } from './filename.js';
import { isShellFence, readShellBlock } from './shell-commands.js';
import type { Edit, ParseContext, ParseProblem, ParseResult } from './types.js';

export function parseWhole(reply: string, ctx: ParseContext): ParseResult {
  const lines = splitReply(reply);
  const edits: Edit[] = [];
  const problems: ParseProblem[] = [];
  const shellCommands: string[] = [];
  let lastEnd = -1;
  let i = 0;
  while (i < lines.length) {
    const open = parseFenceOpen(lines[i]?.bare ?? '');
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
    const onFence = filenameFromInfo(open.info, ctx.chatFiles);
    const named = onFence === undefined ? nameAbove(lines, i, lastEnd, ctx.chatFiles) : { path: onFence, start: i };
    const inside = named === undefined ? chatFileOnFirstLine(lines, i, ctx.chatFiles) : undefined;
    const path = named?.path ?? inside ?? (ctx.chatFiles.length === 1 ? ctx.chatFiles[0] : undefined);
    const start = named?.start ?? i;
    const first = inside === undefined ? i + 1 : i + 2;
    const end = findFenceClose(lines, i, open);
    if (end < 0) {
      const what = path === undefined ? 'The file listing' : `The listing of ${path}`;
      problems.push({
        line: i + 1,
        message: `${what} starting at line ${i + 1} has no closing ${open.fence} line, so it was not written (the reply may have been cut off). Resend the complete file, ending with ${open.fence} on its own line.`,
      });
      break;
    }
    if (path === undefined) {
      problems.push({
        line: i + 1,
        message: `The file listing starting at line ${i + 1} does not say which file it is. Put the file's full path alone on the line before the opening ${open.fence} and resend the complete file.`,
      });
    } else {
      edits.push({
        kind: 'whole',
        path,
        content: joinLines(lines, first, end),
        index: edits.length,
        source: joinLines(lines, start, end + 1),
      });
    }
    lastEnd = end;
    i = end + 1;
  }
  return { edits, shellCommands, problems };
}

/**
 * The diff-fenced habit of naming the file on the first line inside the fence. Only a chat
 * file's exact path counts, since any other first line may be the file's own content.
 */
function chatFileOnFirstLine(lines: readonly ReplyLine[], fence: number, chatFiles: readonly string[]): string | undefined {
  const name = filenameFromLine(lines[fence + 1]?.bare ?? '', chatFiles);
  return name !== undefined && chatFiles.includes(name) ? name : undefined;
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
