// The input history on disk (`.tandem/input.history`): every line typed is appended once, and the saved
// lines join readline's own history, newest first, behind what was typed in this run.
import { mkdirSync } from 'node:fs';
import { appendNoFollow } from '../platform/file-system.js';
import { basename, dirname } from 'node:path';
import { readStateFile, readUserFile, STATE_CAPS } from '../platform/state-files.js';

export const HISTORY_SIZE = 1000;

export class InputHistory {
  private file: string | null = null;
  private lastSaved = '';

  use(file: string | null): void {
    this.file = file;
  }

  /** Appends a typed line (not a blank one, nor the one saved just before). */
  save(line: string): void {
    if (!this.file || line.trim() === '' || line === this.lastSaved) return;
    this.lastSaved = line;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      appendNoFollow(this.file, `${line}\n`);
    } catch {
      // History is a convenience: a read-only repository must not stop the chat.
    }
  }

  /** Puts the saved lines into readline's history (newest first), after the lines typed in this run. */
  loadInto(history: string[]): void {
    if (!this.file) return;
    const typedNow = [...history];
    history.splice(0, history.length, ...typedNow, ...loadHistory(this.file).filter((line) => !typedNow.includes(line)));
  }
}

/** The saved history, newest first as readline keeps it; missing or unreadable means empty. */
export function loadHistory(file: string, limit = HISTORY_SIZE): string[] {
  // Confined like every state file: a planted link to /dev/zero or a FIFO is no history.
  // A file the user chose (--input-history-file) may lie anywhere; it is still read only up to the cap.
  const inState = basename(dirname(file)) === '.tandem';
  const read = inState ? readStateFile(dirname(dirname(file)), file, STATE_CAPS.inputHistory) : readUserFile(file, STATE_CAPS.inputHistory);
  if (!read.ok) return [];
  const text = read.data.toString('utf8');
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.slice(-limit).reverse();
}
