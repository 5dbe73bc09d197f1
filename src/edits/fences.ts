// Line and fence helpers shared by the reply parsers: splitting a reply into lines and
// recognising markdown code fences (``` or ~~~, three or more) the way models write them.

/** One line of a reply, with its `\n` (absent only on a last line without one). */
export interface ReplyLine {
  readonly text: string;
  /** The line without its line break. */
  readonly bare: string;
}

export interface FenceOpen {
  /** The fence characters, e.g. "```" or "````" or "~~~". */
  readonly fence: string;
  /** Everything after the fence characters, trimmed (language and maybe a file name). */
  readonly info: string;
}

const OPEN_RE = /^\s{0,3}(`{3,}|~{3,})\s*([^`]*?)\s*$/;
const CLOSE_RE = /^\s{0,3}(`{3,}|~{3,})\s*$/;
// Aider's alternative fence, used for files that contain ``` themselves: `<source>` or `<source>python`
// opens, `</source>` closes. It never nests, so it is read like a long CommonMark fence.
export const SOURCE_FENCE = '<source>';
const SOURCE_OPEN_RE = /^\s{0,3}<source>\s*([^<>`]*?)\s*$/i;
const SOURCE_CLOSE_RE = /^\s{0,3}<\/source>\s*$/i;

/** Splits a reply into lines; CRLF is read as LF so edits always carry '\n' endings. */
export function splitReply(reply: string): ReplyLine[] {
  const text = reply.replace(/\r\n?/g, '\n');
  if (text === '') return [];
  const parts = text.split('\n');
  const lines: ReplyLine[] = parts.map((bare, i) => ({
    bare,
    text: i < parts.length - 1 ? `${bare}\n` : bare,
  }));
  // A reply ending in '\n' leaves an empty tail that is not a line.
  if (parts[parts.length - 1] === '') lines.pop();
  return lines;
}

/** The fence opened by this line, or undefined. A bare fence line also counts as an opener. */
export function parseFenceOpen(line: string): FenceOpen | undefined {
  if (!mayOpenFence(line)) return undefined;
  const source = SOURCE_OPEN_RE.exec(line);
  if (source) return { fence: SOURCE_FENCE, info: (source[1] ?? '').trim() };
  const m = OPEN_RE.exec(line);
  if (!m) return undefined;
  return { fence: m[1] ?? '```', info: (m[2] ?? '').trim() };
}

/**
 * Most reply lines are code or prose: their first mark (after at most 3 spaces or tabs) is no fence
 * character, so the regexes need not run. Other leading characters go to the regexes, as before.
 */
function mayOpenFence(line: string): boolean {
  for (let i = 0; i < 4 && i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32 || c === 9) continue;
    return c === 96 || c === 126 || c === 60 || c < 32 || c > 127;
  }
  // Blank, or indented four or more: never a fence.
  return false;
}

/** True when `line` closes a block opened with `open` (same character, at least as long). */
export function closesFence(line: string, open: FenceOpen): boolean {
  if (open.fence === SOURCE_FENCE) return SOURCE_CLOSE_RE.test(line);
  const m = CLOSE_RE.exec(line);
  if (!m || m[1] === undefined) return false;
  return m[1][0] === open.fence[0] && m[1].length >= open.fence.length;
}

/** The first word of a fence's info string, lowercased: the language. */
export function fenceLanguage(open: FenceOpen): string {
  return (open.info.split(/\s+/)[0] ?? '').toLowerCase();
}

/**
 * Finds the line that closes the fence opened at `start`, or -1 when it is never closed.
 *
 * Files such as README.md contain fences of their own. CommonMark would end the outer block at
 * the first bare ``` line, cutting the file in half, so for a three-character opener we count
 * nesting: a fence line with a language opens an inner block and a bare fence line closes the
 * innermost open one. A longer opener (````) follows CommonMark: only a bare fence of the same
 * character and at least that length closes it, and shorter fences inside are content.
 */
export function findFenceClose(lines: readonly ReplyLine[], start: number, open: FenceOpen): number {
  if (open.fence.length > 3 || open.fence === SOURCE_FENCE) {
    for (let i = start + 1; i < lines.length; i++) {
      if (closesFence(lines[i]?.bare ?? '', open)) return i;
    }
    return -1;
  }
  let depth = 1;
  for (let i = start + 1; i < lines.length; i++) {
    const bare = lines[i]?.bare ?? '';
    if (closesFence(bare, open)) {
      depth--;
      if (depth === 0) return i;
      continue;
    }
    const inner = parseFenceOpen(bare);
    if (inner && inner.info !== '' && inner.fence[0] === open.fence[0]) depth++;
  }
  return -1;
}

/** Joins lines back into text, keeping each line's own line break. */
export function joinLines(lines: readonly ReplyLine[], from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) out += lines[i]?.text ?? '';
  return out;
}
