// Finds the AI comments in a file's text: comments (in the file's own comment syntax, outside string
// literals) whose text starts or ends with `AI`, with `!` (do it), `?` (answer it) or neither (context).
import { commentSyntaxFor, type CommentSyntax } from './comment-syntax.js';

export type AiCommentKind = 'code' | 'ask' | 'context';

export interface AiComment {
  /** 1-based line number. */
  readonly line: number;
  /** The comment's text, without its markers, trimmed. */
  readonly text: string;
  readonly kind: AiCommentKind;
}

/** `char` literals and lifetimes: a `'` that closes within this many characters opens a literal. */
const SHORT_QUOTE_SPAN = 10;

/** Comment syntax known for `path`'s kind of file. */
export function watchesPath(path: string): boolean {
  return commentSyntaxFor(path) !== null;
}

/** Every AI comment in `text`, in line order; [] for a file type watch mode does not read. */
export function findAiComments(path: string, text: string): AiComment[] {
  const syntax = commentSyntaxFor(path);
  if (!syntax) return [];
  // Cheap first pass: most files hold no word "AI" at all (`main`, `raise` do not count).
  if (!/(?<![\p{L}\p{N}_])ai(?![\p{L}\p{N}_])/iu.test(text)) return [];
  const found: AiComment[] = [];
  const state: ScanState = { closer: null, longQuote: null };
  text.split('\n').forEach((line, index) => {
    for (const comment of commentsOnLine(line, syntax, state)) {
      const kind = classify(comment);
      if (kind) found.push({ line: index + 1, text: comment, kind });
    }
  });
  return found;
}

/** What the text of one comment asks for, or null when it is not an AI comment. */
export function classify(comment: string): AiCommentKind | null {
  const text = comment.trim();
  const start = /^ai([!?])?(?!\w)/i.exec(text);
  if (start?.[1]) return start[1] === '!' ? 'code' : 'ask';
  const end = /(?<!\w)ai([!?])?$/i.exec(text);
  if (end?.[1]) return end[1] === '!' ? 'code' : 'ask';
  return start || end ? 'context' : null;
}

interface ScanState {
  /** Inside a block comment: its closer. */
  closer: string | null;
  /** Inside a string spanning lines: its quote. */
  longQuote: string | null;
}

/** The comment texts on one line, carrying block comments and long strings over to the next. */
function commentsOnLine(line: string, syntax: CommentSyntax, state: ScanState): string[] {
  const comments: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (state.longQuote !== null) {
      const close = closingQuote(line, i, state.longQuote);
      if (close < 0) return comments;
      i = close + state.longQuote.length;
      state.longQuote = null;
      continue;
    }
    if (state.closer !== null) {
      const close = line.indexOf(state.closer, i);
      comments.push(cleanBlockText(line.slice(i, close < 0 ? line.length : close)));
      if (close < 0) return comments;
      i = close + state.closer.length;
      state.closer = null;
      continue;
    }
    const next = scanCode(line, i, syntax, state);
    if (next.comment !== null) comments.push(next.comment);
    if (next.index < 0) return comments;
    i = next.index;
  }
  return comments;
}

/**
 * Walks code from `from` to the next thing that changes state: a line comment (returned, and the line
 * ends), a block comment or long string opening (state set, index after its opener), or the end.
 */
function scanCode(line: string, from: number, syntax: CommentSyntax, state: ScanState): { comment: string | null; index: number } {
  for (let i = from; i < line.length; i++) {
    const char = line[i]!;
    if (char === '\\') {
      i++;
      continue;
    }
    const longQuote = syntax.longQuotes.find((q) => line.startsWith(q, i));
    if (longQuote) {
      state.longQuote = longQuote;
      return { comment: null, index: i + longQuote.length };
    }
    if (syntax.quotes.includes(char) || (char === "'" && syntax.shortSingleQuote)) {
      const close = closingQuote(line, i + 1, char);
      const isString = close >= 0 && (syntax.quotes.includes(char) || close - i <= SHORT_QUOTE_SPAN);
      if (isString) i = close;
      continue;
    }
    const block = syntax.block.find(([open]) => line.startsWith(open, i));
    if (block) {
      state.closer = block[1];
      return { comment: null, index: i + block[0].length };
    }
    const marker = syntax.line.find((m) => line.startsWith(m, i));
    if (marker) return { comment: cleanLineText(line.slice(i), marker), index: -1 };
  }
  return { comment: null, index: -1 };
}

/** Index of the quote closing a string, skipping backslash escapes; -1 when it does not close on this line. */
function closingQuote(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') {
      i++;
      continue;
    }
    if (line.startsWith(quote, i)) return i;
  }
  return -1;
}

/** `## text`, `/// text`, `;;; text`: the text after every repeat of the marker. */
function cleanLineText(comment: string, marker: string): string {
  let text = comment;
  while (text.startsWith(marker)) text = text.slice(marker.length);
  return text.trim();
}

/** A line of a block comment, without the ` * ` many styles start each line with. */
function cleanBlockText(text: string): string {
  return text.trim().replace(/^\*+\s*/, '').trim();
}
