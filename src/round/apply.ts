// The only writer of edits: loads snapshots for planning, then writes a plan file by file, each
// atomically (temp file in the same folder + rename), keeping mode, line endings and BOM; a failure
// midway puts back what the plan already wrote, so a reply lands whole or not at all.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DEFAULT_MAX_FILE_BYTES, decodeFileBytes, encodeSnapshotText, missingSnapshot, type DecodeResult } from '../edits/file-text.js';
import { PathRefusedError, normalizeRepoPath } from '../edits/paths.js';
import { resolveRepoPath } from './real-repo-path.js';
import type { RefusedPath } from '../edits/plan.js';
import type { EditPlan, FileSnapshot, PlannedFile } from '../edits/types.js';
import { nodeFileSystem, type FileSystem } from '../platform/file-system.js';
import { forgetJournalNonce, recordJournalNonce, removeEmptyFolders, removeJournal, sha256, writeJournal } from './apply-journal.js';
import { hostname } from 'node:os';
import { TandemError } from '../platform/errors.js';

export type ApplyErrorKind = 'refused_path' | 'changed_on_disk' | 'write_failed' | 'interrupted';

export class ApplyError extends TandemError {
  constructor(
    readonly kind: ApplyErrorKind,
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ApplyError';
  }
}

export interface LoadedSnapshots {
  /** Keyed by repo-relative posix path. */
  readonly files: Map<string, FileSnapshot>;
  /** Paths refused (outside the repo, binary, too large), keyed by the path as given and as resolved. */
  readonly refused: Map<string, RefusedPath>;
}

export interface LoadOptions {
  readonly maxBytes?: number;
  /** Where the files are read from (the real file system by default). */
  readonly fs?: FileSystem;
}

/** Reads every path it can; refusals are data for planEdits, not exceptions. */
export async function loadSnapshots(
  root: string,
  paths: readonly string[],
  options: LoadOptions = {},
): Promise<LoadedSnapshots> {
  const fs = options.fs ?? nodeFileSystem;
  const files = new Map<string, FileSnapshot>();
  const refused = new Map<string, RefusedPath>();
  for (const requested of new Set(paths)) {
    let rel: string;
    try {
      rel = await resolveRepoPath(root, requested, fs);
    } catch (err) {
      if (!(err instanceof PathRefusedError)) throw err;
      const refusal: RefusedPath = { reason: 'outside_repo', message: err.message };
      refused.set(requested, refusal);
      const lexical = normalizeRepoPath(requested, root);
      if (typeof lexical === 'string') refused.set(lexical, refusal);
      continue;
    }
    if (files.has(rel) || refused.has(rel)) continue;
    const decoded = await readFileSnapshot(fs, path.join(root, rel), rel, options.maxBytes ?? DEFAULT_MAX_FILE_BYTES);
    if (decoded.ok) files.set(rel, decoded.snapshot);
    else refused.set(rel, { reason: decoded.reason, message: decoded.message });
  }
  return { files, refused };
}

function sameSnapshot(a: FileSnapshot, b: FileSnapshot): boolean {
  return a.text === b.text && a.eol === b.eol && a.bom === b.bom;
}

/** Refuses to write over a file that changed since it was planned (or appeared, for a new file). */
async function checkUnchanged(fs: FileSystem, root: string, file: PlannedFile): Promise<void> {
  try {
    await resolveRepoPath(root, file.path, fs);
  } catch (err) {
    if (err instanceof PathRefusedError) throw new ApplyError('refused_path', file.path, err.message);
    throw err;
  }
  const now = await readFileSnapshot(fs, path.join(root, file.path), file.path, Number.MAX_SAFE_INTEGER);
  if (!now.ok || !sameSnapshot(now.snapshot, file.before)) {
    throw new ApplyError('changed_on_disk', file.path, `${file.path} changed on disk after the edits were planned.`);
  }
}

/** A symlink inside the repo is written through, so the link stays a link. */
async function writeTarget(fs: FileSystem, abs: string): Promise<string> {
  try {
    const st = await fs.lstat(abs);
    return st.isSymbolicLink() ? await fs.realpath(abs) : abs;
  } catch {
    return abs;
  }
}

/** What one apply changed, so that it can be put back: the old bytes of each file, what it created. */
interface JournalEntry {
  readonly target: string;
  /** The file's bytes and mode before the write; null when the write created it. */
  readonly before: { readonly bytes: Buffer; readonly mode: number } | null;
  /** The first folder this write had to create, if any. */
  readonly createdFolder: string | undefined;
}

async function readBefore(fs: FileSystem, target: string): Promise<JournalEntry['before']> {
  try {
    const mode = (await fs.stat(target)).mode & 0o7777;
    return { bytes: await fs.readFile(target), mode };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Writes through a temp file in the same folder and a rename, so a reader sees old or new, never half. */
async function writeAtomically(fs: FileSystem, target: string, content: string | Buffer, mode: number | undefined): Promise<void> {
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.tandem-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.writeNew(tmp, content);
    if (mode !== undefined) await fs.chmod(tmp, mode);
    await fs.rename(tmp, target);
  } catch (err) {
    await fs.rm(tmp).catch(() => undefined);
    throw err;
  }
}

export interface AppliedPlan {
  /** Repo-relative paths written. */
  readonly touched: string[];
  /** Puts every written file back (created files and folders removed); returns what could not be restored. */
  rollback(): Promise<string[]>;
  /** The reply is committed (or knowingly kept): forget how to undo it. */
  settle(): Promise<void>;
}

/** Where to keep the on-disk record of a reply being applied (see apply-journal.ts). */
export interface JournalOptions {
  readonly file: string;
  readonly pid: number;
  /** A folder in the user's home where each journal's nonce is recorded, so a planted journal is never replayed. */
  readonly trustDir: string;
}

async function rollbackJournal(fs: FileSystem, journal: readonly JournalEntry[]): Promise<string[]> {
  const failed: string[] = [];
  for (const entry of [...journal].reverse()) {
    try {
      if (entry.before) await writeAtomically(fs, entry.target, entry.before.bytes, entry.before.mode);
      else await fs.rm(entry.target);
      if (entry.createdFolder) await removeEmptyFolders(fs, path.dirname(entry.target), entry.createdFolder);
    } catch {
      failed.push(entry.target);
    }
  }
  return failed;
}

/** The topmost folder on the way to `dir` that does not exist yet (the write will create it), or null. */
async function firstMissingFolder(fs: FileSystem, root: string, dir: string): Promise<string | null> {
  let missing: string | null = null;
  for (let d = dir; d.startsWith(root) && d !== root; d = path.dirname(d)) {
    try {
      await fs.stat(d);
      return missing;
    } catch {
      missing = d;
    }
  }
  return missing;
}


/**
 * Writes every planned file whose bytes change and returns the touched paths with a way to undo them.
 * All files are checked before any is written, so a stale plan writes nothing; a write that fails
 * midway puts back every file already written before the error is thrown.
 */
export async function applyPlanWithUndo(root: string, plan: EditPlan, fs: FileSystem = nodeFileSystem, journalAt?: JournalOptions, signal?: AbortSignal): Promise<AppliedPlan> {
  // SIGTERM or Ctrl-C stops a long reply between two files: nothing yet written, or all of it put back.
  const stopBeforeWriting = (): void => {
    if (signal?.aborted) throw new ApplyError('interrupted', '', 'Interrupted before the reply was written; nothing was changed.');
  };
  for (const file of plan.files) {
    stopBeforeWriting();
    await checkUnchanged(fs, root, file);
  }
  const writes: Array<{ file: PlannedFile; target: string; content: string; before: JournalEntry['before']; newFolder: string | null }> = [];
  for (const file of plan.files) {
    stopBeforeWriting();
    const content = encodeSnapshotText(file.after, file.before);
    const original = file.before.text === null ? null : encodeSnapshotText(file.before.text, file.before);
    if (original === content && !file.created) continue;
    try {
      const target = await writeTarget(fs, path.join(root, file.path));
      writes.push({ file, target, content, before: await readBefore(fs, target), newFolder: await firstMissingFolder(fs, root, path.dirname(target)) });
    } catch (err) {
      throw new ApplyError('write_failed', file.path, `Could not read ${file.path} (${describeFsError(err)}); nothing was changed.`, { cause: err });
    }
  }
  let nonce: string | null = null;
  const forget = async (): Promise<void> => {
    if (!journalAt) return;
    await removeJournal(fs, journalAt.file).catch(() => undefined);
    if (nonce) forgetJournalNonce(journalAt.trustDir, nonce, fs);
  };
  if (journalAt && writes.length > 0) {
    const files = writes.map((w) => ({
      path: path.relative(root, w.target),
      before: w.before ? w.before.bytes.toString('base64') : null,
      mode: w.before ? w.before.mode : null,
      after: sha256(w.content),
      folder: w.newFolder === null ? null : path.relative(root, w.newFolder),
    }));
    try {
      nonce = recordJournalNonce(journalAt.trustDir, journalAt.file, fs);
      await writeJournal(fs, journalAt.file, { pid: journalAt.pid, host: hostname(), nonce, files });
    } catch (err) {
      await forget();
      throw new ApplyError('write_failed', writes[0]?.file.path ?? '', `Could not write ${path.relative(root, journalAt.file)} (${describeFsError(err)}); nothing was changed.`, { cause: err });
    }
  }
  const touched: string[] = [];
  const journal: JournalEntry[] = [];
  for (const { file, target, content, before } of writes) {
    if (signal?.aborted) {
      const unrestored = await rollbackJournal(fs, journal);
      if (unrestored.length === 0) await forget();
      const restored = unrestored.length === 0 ? 'every file written was put back' : `could not restore ${unrestored.map((t) => path.relative(root, t)).join(', ')}`;
      throw new ApplyError('interrupted', file.path, `Interrupted while writing the reply; ${restored}.`);
    }
    try {
      const createdFolder = await fs.mkdir(path.dirname(target));
      journal.push({ target, before, createdFolder });
      await writeAtomically(fs, target, content, before?.mode);
    } catch (err) {
      const unrestored = await rollbackJournal(fs, journal);
      if (unrestored.length === 0) await forget();
      const restored = unrestored.length === 0 ? 'nothing was changed' : `could not restore ${unrestored.map((t) => path.relative(root, t)).join(', ')}`;
      throw new ApplyError('write_failed', file.path, `Could not write ${file.path} (${describeFsError(err)}); ${restored}.`, { cause: err });
    }
    touched.push(file.path);
  }
  return {
    touched,
    rollback: async () => {
      const unrestored = await rollbackJournal(fs, journal);
      if (unrestored.length === 0) await forget();
      return unrestored;
    },
    settle: forget,
  };
}

/** "permission denied", "no space left on device": the error code in words, without a stack. */
export function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EROFS: 'read-only file system',
    EEXIST: 'a file is in the way',
    ENOTDIR: 'a part of the path is a file',
    ENAMETOOLONG: 'name too long',
    EISDIR: 'it is a folder',
  };
  if (code && words[code]) return words[code];
  return code ?? (err instanceof Error ? err.message.split('\n')[0] ?? 'unknown error' : String(err));
}

/** Reads `absPath`; a missing file gives a snapshot with `text: null`. */
export async function readFileSnapshot(
  fs: FileSystem,
  absPath: string,
  repoPath: string,
  maxBytes = DEFAULT_MAX_FILE_BYTES,
): Promise<DecodeResult> {
  let bytes: Buffer;
  try {
    const st = await fs.stat(absPath);
    // A FIFO or device would block or never end: edited like a binary file, i.e. not at all
    if (!st.isFile()) return { ok: false, reason: 'binary', message: `${repoPath} is not a regular file; it cannot be edited.` };
    if (st.size > maxBytes) return { ok: false, reason: 'too_large', message: `${repoPath} is ${st.size} bytes, over the ${maxBytes}-byte limit for edits.` };
    bytes = await fs.readFile(absPath);
  } catch (err) {
    // ENOTDIR (a parent is a file) and ENAMETOOLONG: no file here either; checkWrites tells the model.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') {
      return { ok: true, snapshot: missingSnapshot(repoPath) };
    }
    throw err;
  }
  return decodeFileBytes(repoPath, bytes, maxBytes);
}
