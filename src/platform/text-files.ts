// Reading text files for the chat: the one read path for file contents shown to the model.
import { readFile } from 'node:fs/promises';

/** The file's text with '\n' line endings and no BOM, or null when it does not exist or can't be read. */
export async function readTextFile(path: string): Promise<string | null> {
  try {
    const text = await readFile(path, 'utf8');
    return text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  } catch {
    return null;
  }
}
