// Builds the request a watch trigger sends: the user's AI comments quoted with a few lines around
// each, their files and lines, in code mode when any asks for a change (`AI!`), else ask mode.
import { escapeControlChars } from '../platform/control-chars.js';
import type { AiComment } from './ai-comments.js';
import { fillPlaceholders } from '../platform/placeholders.js';

export interface CommentedFile {
  readonly path: string;
  /** The file's text now. */
  readonly text: string;
  /** The user's AI comments in it (the foreign ones already left out). */
  readonly comments: readonly AiComment[];
}

export interface WatchRequestTemplates {
  /** With `{comments}` where the quotes go. */
  readonly code: string;
  readonly ask: string;
}

export interface WatchRequest {
  readonly mode: 'code' | 'ask';
  readonly text: string;
  /** The files to put in the chat. */
  readonly files: readonly string[];
  /** One line for the terminal (control characters escaped): the first trigger and how many more. */
  readonly summary: string;
}

const CONTEXT_LINES = 3;

/** The request for `triggers` (the comments that fired) and every user AI comment in `files`. */
export function buildWatchRequest(files: readonly CommentedFile[], triggers: readonly (AiComment & { path: string })[], templates: WatchRequestTemplates): WatchRequest {
  const quoted = files.filter((f) => f.comments.length > 0);
  const mode = triggers.some((t) => t.kind === 'code') ? 'code' : 'ask';
  const comments = quoted.map((file) => quoteFile(file)).join('\n\n');
  const text = fillPlaceholders(templates[mode], { comments }).trimEnd();
  return { mode, text, files: quoted.map((f) => f.path), summary: summaryOf(triggers) };
}

function summaryOf(triggers: readonly (AiComment & { path: string })[]): string {
  const first = triggers[0];
  if (!first) return '';
  const more = triggers.length > 1 ? ` (and ${triggers.length - 1} more)` : '';
  return escapeControlChars(`${first.path}:${first.line}: ${first.text}${more}`);
}

/** The file's AI comments, each window of lines around them quoted once, in a fence the text cannot close. */
function quoteFile(file: CommentedFile): string {
  const lines = file.text.split('\n');
  const windows = mergeWindows(file.comments.map((c) => [Math.max(1, c.line - CONTEXT_LINES), Math.min(lines.length, c.line + CONTEXT_LINES)] as const));
  const where = file.comments.map((c) => c.line).join(', ');
  const width = String(lines.length).length;
  // The user's comment lines are marked `>`; other lines (other comments mentioning AI too) are context.
  const mine = new Set(file.comments.map((c) => c.line));
  const body = windows
    .map(([from, to]) =>
      lines
        .slice(from - 1, to)
        .map((line, i) => `${mine.has(from + i) ? '>' : ' '} ${String(from + i).padStart(width)} | ${line}`)
        .join('\n'),
    )
    .join('\n...\n');
  const fence = fenceFor(body);
  return `${file.path}, AI comment${file.comments.length === 1 ? '' : 's'} on line${file.comments.length === 1 ? '' : 's'} ${where}:\n${fence}\n${body}\n${fence}`;
}

function mergeWindows(windows: readonly (readonly [number, number])[]): Array<[number, number]> {
  const sorted = [...windows].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [from, to] of sorted) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** A backtick fence longer than any run of backticks in the text. */
function fenceFor(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}
