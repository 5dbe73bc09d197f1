// Reads tandem's own prompt files (the package's prompts/ folder) by id, for the one prompt loader in
// coders/prompt-set.ts. Ids are fixed names written by tandem (`diff/system.md`), never user input.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Reads `prompts/<id>`; null when the file does not exist. */
export type PromptReader = (id: string) => Promise<string | null>;

export function createPromptReader(promptsDir: string): PromptReader {
  // Some thirty small files of tandem's own per run: read at once, a whole asynchronous read (open, stat,
  // read, close through the thread pool) costs several times their size in CPU.
  return async (id) => {
    try {
      return readFileSync(join(promptsDir, id), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };
}
