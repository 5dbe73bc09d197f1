// A record on disk of the reply being applied (each file's bytes before, a hash of its bytes after),
// written before the first file and removed once the reply is committed or undone. If tandem is
// killed in between (SIGKILL, power loss), the next tandem puts back what the killed one wrote.
// A journal can also come with a clone: only one this user's tandem wrote on this host is replayed
// (its nonce is recorded in the user's home when it is written), and only paths inside the repository,
// outside `.git/` and `.tandem/`, are put back.
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { nodeFileSystem, type FileSystem } from '../platform/file-system.js';
import { readStateFile, STATE_CAPS } from '../platform/state-files.js';

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
  /** The host and the nonce whose record in the user's home says this user's tandem wrote it. */
  readonly host?: string;
  readonly nonce?: string;
}

const NONCE = /^[0-9a-f]{32}$/;

/** A new nonce, recorded in `trustDir` (in the user's home) with the journal file it belongs to. */
export function recordJournalNonce(trustDir: string, file: string, fs: FileSystem = nodeFileSystem): string {
  const nonce = randomBytes(16).toString('hex');
  fs.mkdirSync(trustDir, 0o700);
  fs.writeNewSync(path.join(trustDir, nonce), path.resolve(file), 0o600);
  return nonce;
}

export function forgetJournalNonce(trustDir: string, nonce: string, fs: FileSystem = nodeFileSystem): void {
  fs.rmSync(path.join(trustDir, nonce));
}

/** Whether `journal` (at `file`) was written by this user's tandem on this host. */
function writtenByUs(fs: FileSystem, journal: Journal, file: string, trustDir: string): boolean {
  if (journal.host !== hostname() || typeof journal.nonce !== 'string' || !NONCE.test(journal.nonce)) return false;
  try {
    return fs.readFileSync(path.join(trustDir, journal.nonce)).toString('utf8') === path.resolve(file);
  } catch {
    return false;
  }
}

/** The absolute path of a journal entry when it stays in the repository, outside `.git/` and `.tandem/`; else null. */
async function confinedTarget(fs: FileSystem, root: string, entryPath: unknown): Promise<string | null> {
  if (typeof entryPath !== 'string' || entryPath === '' || path.isAbsolute(entryPath) || entryPath.includes('\0')) return null;
  const abs = path.resolve(root, entryPath);
  if (!insideWorkTree(root, abs)) return null;
  // Folders on the way may be links: the deepest existing one must really lie inside too.
  const realRoot = await fs.realpath(root).catch(() => null);
  if (realRoot === null) return null;
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    const real = await fs.realpath(dir).catch(() => null);
    if (real !== null) return real === realRoot || insideWorkTree(realRoot, path.join(real, 'x')) ? abs : null;
    if (dir === root || path.dirname(dir) === dir) return null;
  }
}

/** The folder an entry's write created, only when it is an ancestor of the entry inside the work tree. */
function createdFolder(root: string, abs: string, folder: unknown): string | null {
  if (typeof folder !== 'string' || folder === '') return null;
  const top = path.resolve(root, folder);
  return insideWorkTree(root, top) && abs.startsWith(top + path.sep) ? top : null;
}

function insideWorkTree(root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  const top = (rel.split(path.sep)[0] ?? '').toLowerCase();
  return top !== '.git' && top !== '.tandem';
}

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function writeJournal(fs: FileSystem, file: string, journal: Journal): Promise<void> {
  await fs.mkdir(path.dirname(file));
  const tmp = `${file}.tmp`;
  await fs.rm(tmp);
  await fs.writeNew(tmp, JSON.stringify(journal));
  await fs.rename(tmp, file);
}

export async function removeJournal(fs: FileSystem, file: string): Promise<void> {
  await fs.rm(file);
}

export interface RecoverOptions {
  /** Where the nonces of journals this user's tandem wrote are recorded (in the user's home). */
  readonly trustDir: string;
  /** Told when a journal is ignored (planted, from another host or user) or an entry is refused. */
  readonly warn?: (message: string) => void;
}

/**
 * Puts back the files a killed tandem left half-applied (those still holding what it wrote; a file
 * the user changed since is left alone) and removes the journal. Returns the paths put back.
 * Call it holding the repository lock, so the journal's writer is known to be gone.
 */
export async function recoverJournal(fs: FileSystem, root: string, file: string, options: RecoverOptions): Promise<string[]> {
  const read = readStateFile(root, file, STATE_CAPS.journal);
  if (!read.ok) {
    if (!read.missing) options.warn?.(`${read.message}; no half-applied reply was put back`);
    return [];
  }
  let journal: Journal;
  try {
    journal = JSON.parse(read.data.toString('utf8')) as Journal;
  } catch {
    await fs.rm(file);
    return [];
  }
  // Left where it is: it may belong to a tandem on another host sharing this folder.
  if (!writtenByUs(fs, journal, file, options.trustDir)) {
    options.warn?.(`${path.relative(root, file)} was not written by this user's tandem on this host (it may have come with the repository); ignored, nothing was put back`);
    return [];
  }
  const restored: string[] = [];
  for (const entry of Array.isArray(journal.files) ? journal.files : []) {
    const abs = await confinedTarget(fs, root, entry.path);
    if (abs === null) {
      options.warn?.(`The apply journal names ${JSON.stringify(String(entry.path))}, which is not a file of the repository outside .git/ and .tandem/; left alone`);
      continue;
    }
    await removeTempFiles(fs, abs);
    const now = await fs.readFile(abs).catch(() => null);
    if (now === null || sha256(now) !== entry.after) {
      // Killed before this file was written: only the folders made for it may be there.
      const folder = createdFolder(root, abs, entry.folder);
      if (folder) await removeEmptyFolders(fs, path.dirname(abs), folder);
      continue;
    }
    if (entry.before === null) {
      await fs.rm(abs);
      const folder = createdFolder(root, abs, entry.folder);
      if (folder) await removeEmptyFolders(fs, path.dirname(abs), folder);
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
  if (journal.nonce) forgetJournalNonce(options.trustDir, journal.nonce, fs);
  return restored;
}

/** The temp files (`.name.tandem-<random>.tmp`) a write killed before its rename leaves beside `abs`. */
async function removeTempFiles(fs: FileSystem, abs: string): Promise<void> {
  const prefix = `.${path.basename(abs)}.tandem-`;
  const names = await fs.readdir(path.dirname(abs)).catch(() => [] as string[]);
  for (const name of names) if (name.startsWith(prefix) && name.endsWith('.tmp')) await fs.rm(path.join(path.dirname(abs), name));
}

/** Removes `from` and its parents up to and including `top`, as long as they are empty. */
export async function removeEmptyFolders(fs: FileSystem, from: string, top: string): Promise<void> {
  for (let dir = from; dir.startsWith(top); dir = path.dirname(dir)) {
    try {
      await fs.rmdir(dir);
    } catch {
      return; // not empty: another file of this reply, or the user's, still lives there
    }
    if (dir === top) return;
  }
}
