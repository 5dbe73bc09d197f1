// Suggested shell commands: fenced bash/sh/shell/console blocks become command strings
// (prompts and comments dropped, continuations and heredocs kept whole). Never edits.

import { type FenceOpen, type ReplyLine, closesFence, fenceLanguage } from './fences.js';

// Suggested commands are short; the cap keeps a reply full of unclosed fences linear.
const MAX_SHELL_LINES = 400;

const SHELL_LANGUAGES = new Set(['bash', 'sh', 'shell', 'zsh', 'console', 'shell-session', 'shellsession']);

export function isShellFence(open: FenceOpen): boolean {
  return SHELL_LANGUAGES.has(fenceLanguage(open));
}

export interface ShellBlock {
  readonly commands: string[];
  /** Index of the closing fence line. */
  readonly end: number;
}

/**
 * Reads the shell block opened at `start`. Returns undefined when it is not closed or when
 * `isEditLine` flags a line inside it (then the fence wraps an edit, not commands).
 */
export function readShellBlock(
  lines: readonly ReplyLine[],
  start: number,
  open: FenceOpen,
  isEditLine: (bare: string) => boolean,
): ShellBlock | undefined {
  let end = -1;
  const limit = Math.min(lines.length, start + MAX_SHELL_LINES);
  for (let j = start + 1; j < limit && end < 0; j++) {
    if (closesFence(lines[j]?.bare ?? '', open)) end = j;
  }
  if (end < 0) return undefined;
  const body = lines.slice(start + 1, end).map((l) => l.bare);
  if (body.some(isEditLine)) return undefined;
  const consoleStyle = fenceLanguage(open) === 'console' || fenceLanguage(open).includes('session');
  return { commands: commandsFromLines(body, consoleStyle), end };
}

/** Turns the lines of a shell block into commands. In console style only `$ ` lines are commands. */
function commandsFromLines(body: readonly string[], consoleStyle: boolean): string[] {
  const commands: string[] = [];
  let pending: string[] = [];
  let heredoc: string | undefined;
  for (const raw of body) {
    if (heredoc !== undefined) {
      pending.push(raw);
      if (raw.trim() === heredoc) heredoc = undefined;
      if (heredoc === undefined) pending = flush(commands, pending);
      continue;
    }
    let line = raw.trimEnd();
    if (pending.length === 0) {
      const prompt = /^\s*\$\s+/.exec(line);
      if (consoleStyle && !prompt) continue;
      if (prompt) line = line.slice(prompt[0].length);
      if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    }
    pending.push(line);
    const doc = /<<-?\s*(['"]?)([A-Za-z_]\w*)\1/.exec(line);
    if (doc?.[2] !== undefined) {
      heredoc = doc[2];
      continue;
    }
    // A trailing backslash continues the command on the next line.
    if (!line.endsWith('\\')) pending = flush(commands, pending);
  }
  flush(commands, pending);
  return commands;
}

function flush(commands: string[], pending: string[]): string[] {
  if (pending.length > 0) commands.push(pending.join('\n'));
  return [];
}
