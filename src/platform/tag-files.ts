// The file I/O of the repository map's tag collection (sources, queries, the per-repository tag
// cache's writes), kept here so src/repomap/ stays free of node:fs.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A file's bytes, or null when it cannot be read. Synchronous: see parse-file.ts. */
export function readBytesSync(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** Size and mtime of a regular file (links followed), or null. */
export async function statRegularFile(file: string): Promise<{ size: number; mtimeMs: number } | null> {
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : null;
}

export function pathExists(file: string): boolean {
  return existsSync(file);
}

/** A text file's contents; null when it does not exist, other errors thrown. */
export async function readTextOrNull(file: string): Promise<string | null> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

/** sha1 over the names and contents of the files in `dir` ending in `suffix` (sorted); '' when unreadable. */
export function digestFolder(dir: string, suffix: string): string {
  try {
    const hash = createHash('sha1');
    for (const name of readdirSync(dir).filter((n) => n.endsWith(suffix)).sort()) {
      hash.update(`${name}\0`).update(readFileSync(path.join(dir, name))).update('\0');
    }
    return hash.digest('hex');
  } catch {
    return '';
  }
}

export async function appendText(file: string, text: string): Promise<void> {
  await appendFile(file, text, 'utf8');
}

/** Temp file in the same folder, then rename: readers see the old file or the new, never half. */
export async function writeAtomically(file: string, content: string | Uint8Array | Iterable<string>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, typeof content === 'string' || content instanceof Uint8Array ? content : chunks(content), 'utf8');
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Lines written as they are made, so a big file is never one string in memory. */
async function* chunks(lines: Iterable<string>): AsyncGenerator<string> {
  let batch = '';
  for (const line of lines) {
    batch += line;
    if (batch.length >= 1 << 20) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}
