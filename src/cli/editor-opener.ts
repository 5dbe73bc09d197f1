// /editor's editor: the user's `--editor`, else $VISUAL, else $EDITOR, else vi, opened on a temporary
// Markdown file with the terminal handed over while it runs; the saved text comes back.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeControlChars } from '../platform/control-chars.js';
import { runEditorProgram } from '../platform/user-programs.js';
import type { EditorOutcome } from './commands/types.js';
import type { LineReader } from './line-reader.js';

export interface EditorOpenerOptions {
  /** `--editor` (the user's own settings only). */
  readonly editor: string | null;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly lines: LineReader;
  /** A terminal the editor can take; without one it runs with no stdin. */
  readonly terminal: boolean;
}

const DEFAULT_EDITOR = 'vi';

export function editorCommandLine(editor: string | null, env: Readonly<Record<string, string | undefined>>): string {
  const pick = [editor, env['VISUAL'], env['EDITOR']].find((value) => value !== null && value !== undefined && value.trim() !== '');
  return pick?.trim() ?? DEFAULT_EDITOR;
}

export function createEditorOpener(options: EditorOpenerOptions): (initial: string) => Promise<EditorOutcome> {
  return async (initial) => {
    const command = editorCommandLine(options.editor, options.env);
    const dir = mkdtempSync(join(options.env['TMPDIR'] || '/tmp', 'tandem-editor-'));
    const file = join(dir, 'message.md');
    try {
      writeFileSync(file, initial, { mode: 0o600 });
      const env = Object.fromEntries(Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
      const code = await options.lines.withTerminal(() => runEditorProgram(command, file, { env, cwd: options.cwd, terminal: options.terminal }));
      const shown = escapeControlChars(command);
      if (code === null) return { ok: false, reason: `The editor (${shown}) could not start or was stopped.` };
      if (code !== 0) return { ok: false, reason: `The editor (${shown}) exited with code ${code}.` };
      const text = readFileSync(file, 'utf8').trim();
      if (text === '') return { ok: false, reason: 'The message was left empty.' };
      return { ok: true, text };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
