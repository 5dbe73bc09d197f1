// Reads tandem's own prompt files (the package's prompts/ folder) by id, for the one prompt loader in
// coders/prompt-set.ts. Ids are fixed names written by tandem (`diff/system.md`), never user input.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Reads `prompts/<id>`; null when the file does not exist. */
export type PromptReader = (id: string) => Promise<string | null>;

export function createPromptReader(promptsDir: string): PromptReader {
  return async (id) => {
    try {
      return await readFile(join(promptsDir, id), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };
}
