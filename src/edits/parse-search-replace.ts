// Parser for the `diff` and `diff-fenced` formats: SEARCH/REPLACE blocks with the file name
// before the fence, on the fence line, or first inside the fence (either layout in both formats).
//
// Rules, in the order they are applied:
// - A block runs from a `<<<<<<< SEARCH` line to the next `>>>>>>> REPLACE` line; the divider is
//   the one `=======` line between them (with several, the one written with exactly seven `=`); a
//   divider right before the REPLACE line, with another divider above it, only ends REPLACE.
//   Fences are not used to delimit blocks, because the edited text may itself contain fences.
// - The file name is the nearest of: the non-blank line just before the SEARCH line, a file name
//   on the fence line, the non-blank line just before the fence, a "... `path`:" sentence there.
// - Without a file name a block takes the previous block's file, else the only chat file.
// - Near-miss markers, blocks without a divider or REPLACE line, and stray REPLACE lines become
//   problems addressed to the model; the other blocks are still returned.
// - Fenced bash/sh/shell/console blocks that hold no markers are suggested shell commands.

import { type ReplyLine, joinLines, parseFenceOpen, splitReply } from './fences.js';
import { filenameFromInfo, filenameFromLine, filenameFromProse, unreadableFileName } from './filename.js';
import {
  DIVIDER,
  HEAD,
  TAIL,
  isDivider,
  isExactDivider,
  isHead,
  isMarkerLike,
  isNearHead,
  isNearTail,
  isTail,
  quoteLine,
} from './markers.js';
import { isShellFence, readShellBlock } from './shell-commands.js';
import type { Edit, ParseContext, ParseProblem, ParseResult } from './types.js';

interface ParseState {
  readonly lines: readonly ReplyLine[];
  readonly ctx: ParseContext;
  readonly edits: Edit[];
  readonly problems: ParseProblem[];
  readonly shellCommands: string[];
  /** Index of the last line that belonged to a block; file names are never looked for above it. */
  lastEnd: number;
  lastPath: string | undefined;
  /** The latest name line tandem could not read: unnamed blocks after it never fall back to another file. */
  lastUnreadable: { readonly line: number; readonly name: string } | undefined;
}

export function parseSearchReplace(reply: string, ctx: ParseContext): ParseResult {
  const lines = splitReply(reply);
  const state: ParseState = {
    lines,
    ctx,
    edits: [],
    problems: [],
    shellCommands: [],
    lastEnd: -1,
    lastPath: undefined,
    lastUnreadable: undefined,
  };
  let i = 0;
  while (i < lines.length) {
    const bare = lines[i]?.bare ?? '';
    if (isHead(bare) || isNearHead(bare)) {
      i = readBlock(state, i) + 1;
      state.lastEnd = i - 1;
      continue;
    }
    if (isTail(bare) || isNearTail(bare)) {
      problem(state, i, `Line ${i + 1} ${quoteLine(bare)} ends a block that never started: there is no "${HEAD}" line before it. Write each block as a "${HEAD}" line, the exact current lines, a "${DIVIDER}" line, the new lines and a "${TAIL}" line, then resend this block.`);
      state.lastEnd = i;
      i++;
      continue;
    }
    const open = parseFenceOpen(bare);
    const shell = open && isShellFence(open) ? readShellBlock(lines, i, open, isMarkerLike) : undefined;
    if (shell) {
      state.shellCommands.push(...shell.commands);
      state.lastEnd = shell.end;
      i = shell.end + 1;
      continue;
    }
    i++;
  }
  return { edits: state.edits, shellCommands: state.shellCommands, problems: state.problems };
}

function problem(state: ParseState, index: number, message: string): void {
  state.problems.push({ line: index + 1, message });
}

interface BlockEnd {
  /** Last line that belongs to the block. */
  readonly last: number;
  readonly tail: 'ok' | 'near' | 'missing';
  /** Why a missing tail was noticed. */
  readonly stoppedBy: 'next_block' | 'end_of_reply';
}

function findBlockEnd(lines: readonly ReplyLine[], head: number, chatFiles: readonly string[]): BlockEnd {
  for (let j = head + 1; j < lines.length; j++) {
    const bare = lines[j]?.bare ?? '';
    if (isTail(bare)) return { last: j, tail: 'ok', stoppedBy: 'end_of_reply' };
    if (isNearTail(bare)) return { last: j, tail: 'near', stoppedBy: 'end_of_reply' };
    if (isHead(bare) || isNearHead(bare)) {
      // Leave the next block's file name and fence to it, or it would take this block's file.
      const last = findPath(lines, j, head, chatFiles).start - 1;
      return { last, tail: 'missing', stoppedBy: 'next_block' };
    }
  }
  return { last: lines.length - 1, tail: 'missing', stoppedBy: 'end_of_reply' };
}

/** Reads the block whose SEARCH line is `head`; returns the index of its last line. */
function readBlock(state: ParseState, head: number): number {
  const { lines, ctx } = state;
  const headLine = lines[head]?.bare ?? '';
  const end = findBlockEnd(lines, head, ctx.chatFiles);
  const found = findPath(lines, head, state.lastEnd, ctx.chatFiles);
  if (found.path !== undefined) {
    state.lastPath = found.path;
    state.lastUnreadable = undefined;
  }
  if (found.unreadable !== undefined) state.lastUnreadable = found.unreadable;
  // A name line tandem cannot read is never taken for the previous block's file or the only chat file:
  // the block would land in the wrong place.
  const unreadable = found.path === undefined ? state.lastUnreadable : undefined;
  const path = unreadable ? undefined : found.path ?? state.lastPath ?? (ctx.chatFiles.length === 1 ? ctx.chatFiles[0] : undefined);
  const where = `The block starting at line ${head + 1}${path === undefined ? '' : ` (for ${path})`}`;

  if (isNearHead(headLine)) {
    problem(state, head, `Line ${head + 1} ${quoteLine(headLine)} is not a valid marker: write it exactly as "${HEAD}" on its own line, then resend this block.`);
    return end.last;
  }
  if (end.tail === 'near') {
    const tailLine = lines[end.last]?.bare ?? '';
    problem(state, end.last, `Line ${end.last + 1} ${quoteLine(tailLine)} is not a valid marker: write it exactly as "${TAIL}" on its own line, then resend the block starting at line ${head + 1}.`);
    return end.last;
  }
  if (end.tail === 'missing') {
    const reason = end.stoppedBy === 'next_block' ? `before the next "${HEAD}"` : 'before the reply ends';
    problem(state, head, `${where} has no "${TAIL}" line ${reason}. End every block with "${TAIL}" on its own line and resend this block.`);
    return end.last;
  }
  const divider = chooseDivider(state, head, end.last, where);
  if (divider === undefined) return end.last;
  if (unreadable !== undefined) {
    problem(state, head, `${where} follows line ${unreadable.line}, ${quoteLine(unreadable.name)}, which tandem cannot read as a file path (a space, a quote or other punctuation in the name). Put the file's path alone on the line before the opening fence, in backticks if it holds spaces, and resend this block.`);
    return end.last;
  }
  if (path === undefined) {
    problem(state, head, `${where} does not say which file it edits. Put the file's full path alone on the line before the opening fence and resend this block.`);
    return end.last;
  }
  state.edits.push({
    kind: 'replace',
    path,
    search: joinLines(lines, head + 1, divider),
    replace: joinLines(lines, divider + 1, replaceEnd(lines, divider, end.last)),
    index: state.edits.length,
    source: joinLines(lines, found.start, end.last + 1),
  });
  return end.last;
}

/** The divider between head and tail, or undefined after reporting why there is none. */
function chooseDivider(state: ParseState, head: number, tail: number, where: string): number | undefined {
  const candidates: number[] = [];
  const nearMisses: number[] = [];
  for (let j = head + 1; j < tail; j++) {
    const bare = state.lines[j]?.bare ?? '';
    if (isDivider(bare)) candidates.push(j);
    else if (/^\s*={2,}\s*$/.test(bare)) nearMisses.push(j);
  }
  // A divider with nothing after it ends REPLACE (a habit of some models on every block): it is not a
  // second divider, so drop it when another one remains.
  const written = [...candidates];
  if (candidates.length > 1 && candidates[candidates.length - 1] === tail - 1) candidates.pop();
  if (candidates.length === 1) return candidates[0];
  const exact = candidates.filter((j) => isExactDivider(state.lines[j]?.bare ?? ''));
  if (exact.length === 1) return exact[0];
  if (candidates.length > 1) {
    const at = written.map((j) => j + 1).join(', ');
    problem(state, head, `${where} has several "${DIVIDER}" lines (lines ${at}), so it is unclear where SEARCH ends. Keep exactly one "${DIVIDER}" line between the SEARCH and REPLACE parts (choose SEARCH lines that contain no such line) and resend this block.`);
    return undefined;
  }
  const hint = nearMisses[0] === undefined ? '' : ` (line ${nearMisses[0] + 1} ${quoteLine(state.lines[nearMisses[0]]?.bare ?? '')} should be exactly "${DIVIDER}")`;
  problem(state, head, `${where} has no "${DIVIDER}" line between the SEARCH and REPLACE parts${hint}. Resend this block with the divider on its own line.`);
  return undefined;
}

/** Where REPLACE ends: before a stray divider right above the tail (see chooseDivider). */
function replaceEnd(lines: readonly ReplyLine[], divider: number, tail: number): number {
  return tail - 1 > divider && isDivider(lines[tail - 1]?.bare ?? '') ? tail - 1 : tail;
}

interface FoundPath {
  readonly path: string | undefined;
  /** First line of the block as written (file name line, fence line or SEARCH line). */
  readonly start: number;
  /** No path, but the line where one belongs names a file tandem cannot read as a path. */
  readonly unreadable?: { readonly line: number; readonly name: string };
}

function previousNonBlank(lines: readonly ReplyLine[], from: number, floor: number): number {
  let k = from;
  while (k > floor && (lines[k]?.bare ?? '').trim() === '') k--;
  return k;
}

/** Looks above a SEARCH line, never past `floor`, for the file name the model wrote. */
function findPath(lines: readonly ReplyLine[], head: number, floor: number, chatFiles: readonly string[]): FoundPath {
  const k = previousNonBlank(lines, head - 1, floor);
  if (k <= floor) return { path: undefined, start: head };
  const above = lines[k]?.bare ?? '';
  const open = parseFenceOpen(above);
  if (!open) {
    const path = filenameFromLine(above, chatFiles) ?? filenameFromProse(above, chatFiles);
    return path === undefined ? { path: undefined, start: head, ...unreadableAt(lines, k, chatFiles) } : { path, start: k };
  }
  const onFence = filenameFromInfo(open.info, chatFiles);
  if (onFence !== undefined) return { path: onFence, start: k };
  const k2 = previousNonBlank(lines, k - 1, floor);
  if (k2 <= floor) return { path: undefined, start: k };
  const before = lines[k2]?.bare ?? '';
  const path = filenameFromLine(before, chatFiles) ?? filenameFromProse(before, chatFiles);
  return path === undefined ? { path: undefined, start: k, ...unreadableAt(lines, k2, chatFiles) } : { path, start: k2 };
}

/** `{ unreadable }` when line `k` names a file tandem cannot read as a path, else nothing. */
function unreadableAt(lines: readonly ReplyLine[], k: number, chatFiles: readonly string[]): Pick<FoundPath, 'unreadable'> {
  const name = unreadableFileName(lines[k]?.bare ?? '', chatFiles);
  return name === undefined ? {} : { unreadable: { line: k + 1, name } };
}
