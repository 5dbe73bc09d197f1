// A record on disk of the reply being applied (each file's bytes before, a hash of its bytes after),
// written before the first file and removed once the reply is committed or undone. If tandem is
// killed in between (SIGKILL, power loss), the next tandem puts back what the killed one wrote.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { removeEmptyFolders, type WriteFs } from './write-fs.js';

export interface JournalFile {
  /** Repo-relative path. */
  readonly path: string;
  /** The bytes before the reply, base64; null when the reply creates the file. */
  readonly before: string | null;
  readonly mode: number | null;
  /** sha256 of the bytes the reply writes: only a file still holding them is put back. */
  readonly after: string;
  /** The first folder (repo-relative) the write creates, removed again when left empty. */
  readonly folder?: string | null;
}

export interface Journal {
  readonly pid: number;
  readonly files: JournalFile[];
}

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function writeJournal(fs: WriteFs, file: string, journal: Journal): Promise<void> {
  await fs.mkdir(path.dirname(file));
  const tmp = `${file}.tmp`;
  await fs.rm(tmp);
  await fs.writeNew(tmp, JSON.stringify(journal));
  await fs.rename(tmp, file);
}

export async function removeJournal(fs: WriteFs, file: string): Promise<void> {
  await fs.rm(file);
}

/**
 * Puts back the files a killed tandem left half-applied (those still holding what it wrote; a file
 * the user changed since is left alone) and removes the journal. Returns the paths put back.
 * Call it holding the repository lock, so the journal's writer is known to be gone.
 */
export async function recoverJournal(fs: WriteFs, root: string, file: string): Promise<string[]> {
  let journal: Journal;
  try {
    journal = JSON.parse((await fs.readFile(file)).toString('utf8')) as Journal;
  } catch {
    await fs.rm(file);
    return [];
  }
  const restored: string[] = [];
  for (const entry of journal.files ?? []) {
    const abs = path.join(root, entry.path);
    await removeTempFiles(fs, abs);
    const now = await fs.readFile(abs).catch(() => null);
    if (now === null || sha256(now) !== entry.after) {
      // Killed before this file was written: only the folders made for it may be there.
      if (entry.folder) await removeEmptyFolders(fs, path.dirname(abs), path.join(root, entry.folder));
      continue;
    }
    if (entry.before === null) {
      await fs.rm(abs);
      if (entry.folder) await removeEmptyFolders(fs, path.dirname(abs), path.join(root, entry.folder));
    } else {
      const tmp = `${abs}.tandem-restore.tmp`;
      await fs.rm(tmp);
      await fs.writeNew(tmp, Buffer.from(entry.before, 'base64'));
      if (entry.mode !== null) await fs.chmod(tmp, entry.mode);
      await fs.rename(tmp, abs);
    }
    restored.push(entry.path);
  }
  await fs.rm(file);
  return restored;
}

/** The temp files (`.name.tandem-<random>.tmp`) a write killed before its rename leaves beside `abs`. */
async function removeTempFiles(fs: WriteFs, abs: string): Promise<void> {
  const prefix = `.${path.basename(abs)}.tandem-`;
  const names = await fs.readdir(path.dirname(abs)).catch(() => [] as string[]);
  for (const name of names) if (name.startsWith(prefix) && name.endsWith('.tmp')) await fs.rm(path.join(path.dirname(abs), name));
}
