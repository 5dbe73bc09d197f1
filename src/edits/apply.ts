// The only writer of edits: loads snapshots for planning, then writes a plan file by file, each
// atomically (temp file in the same folder + rename), keeping mode, line endings and BOM.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_MAX_FILE_BYTES, encodeSnapshotText, readFileSnapshot } from './file-text.js';
import { PathRefusedError, normalizeRepoPath, resolveRepoPath } from './paths.js';
import type { RefusedPath } from './plan.js';
import type { EditPlan, FileSnapshot, PlannedFile } from './types.js';

export type ApplyErrorKind = 'refused_path' | 'changed_on_disk' | 'write_failed';

export class ApplyError extends Error {
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
}

/** Reads every path it can; refusals are data for planEdits, not exceptions. */
export async function loadSnapshots(
  root: string,
  paths: readonly string[],
  options: LoadOptions = {},
): Promise<LoadedSnapshots> {
  const files = new Map<string, FileSnapshot>();
  const refused = new Map<string, RefusedPath>();
  for (const requested of new Set(paths)) {
    let rel: string;
    try {
      rel = await resolveRepoPath(root, requested);
    } catch (err) {
      if (!(err instanceof PathRefusedError)) throw err;
      const refusal: RefusedPath = { reason: 'outside_repo', message: err.message };
      refused.set(requested, refusal);
      const lexical = normalizeRepoPath(requested, root);
      if (typeof lexical === 'string') refused.set(lexical, refusal);
      continue;
    }
    if (files.has(rel) || refused.has(rel)) continue;
    const decoded = await readFileSnapshot(path.join(root, rel), rel, options.maxBytes ?? DEFAULT_MAX_FILE_BYTES);
    if (decoded.ok) files.set(rel, decoded.snapshot);
    else refused.set(rel, { reason: decoded.reason, message: decoded.message });
  }
  return { files, refused };
}

function sameSnapshot(a: FileSnapshot, b: FileSnapshot): boolean {
  return a.text === b.text && a.eol === b.eol && a.bom === b.bom;
}

/** Refuses to write over a file that changed since it was planned (or appeared, for a new file). */
async function checkUnchanged(root: string, file: PlannedFile): Promise<void> {
  try {
    await resolveRepoPath(root, file.path);
  } catch (err) {
    if (err instanceof PathRefusedError) throw new ApplyError('refused_path', file.path, err.message);
    throw err;
  }
  const now = await readFileSnapshot(path.join(root, file.path), file.path, Number.MAX_SAFE_INTEGER);
  if (!now.ok || !sameSnapshot(now.snapshot, file.before)) {
    throw new ApplyError('changed_on_disk', file.path, `${file.path} changed on disk after the edits were planned.`);
  }
}

/** A symlink inside the repo is written through, so the link stays a link. */
async function writeTarget(abs: string): Promise<string> {
  try {
    const st = await fs.lstat(abs);
    return st.isSymbolicLink() ? await fs.realpath(abs) : abs;
  } catch {
    return abs;
  }
}

async function writeAtomically(target: string, content: string): Promise<void> {
  const dir = path.dirname(target);
  await fs.mkdir(dir, { recursive: true });
  let mode: number | undefined;
  try {
    mode = (await fs.stat(target)).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const tmp = path.join(dir, `.${path.basename(target)}.tandem-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.writeFile(tmp, content, { encoding: 'utf8', flag: 'wx' });
    if (mode !== undefined) await fs.chmod(tmp, mode);
    await fs.rename(tmp, target);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Writes every planned file whose bytes change; returns the touched repo-relative paths.
 * All files are checked before any is written, so a stale plan writes nothing.
 */
export async function applyPlan(root: string, plan: EditPlan): Promise<string[]> {
  for (const file of plan.files) await checkUnchanged(root, file);
  const touched: string[] = [];
  for (const file of plan.files) {
    const content = encodeSnapshotText(file.after, file.before);
    const original = file.before.text === null ? null : encodeSnapshotText(file.before.text, file.before);
    if (original === content && !file.created) continue;
    const target = await writeTarget(path.join(root, file.path));
    try {
      await writeAtomically(target, content);
    } catch (err) {
      throw new ApplyError('write_failed', file.path, `Could not write ${file.path}: ${String(err)}`, { cause: err });
    }
    touched.push(file.path);
  }
  return touched;
}
