// The one way tandem reads its own state under `<root>/.tandem/` (session logs, caches, history, the
// apply journal, the write lock). Nothing there is trusted because it is there: a clone can bring it.
// Every component is lstat'ed (no links), the file must be regular and under a cap, it is opened
// without following links or blocking (a FIFO, /dev/zero), and no more than the cap is read.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import path from 'node:path';
import { posixRelative } from './repo-path.js';

/** Caps per kind of state file: far above what tandem writes, far below what would hurt. */
export const STATE_CAPS = {
  sessionLog: 64 * 1024 * 1024,
  tagsCache: 256 * 1024 * 1024,
  mapsCache: 16 * 1024 * 1024,
  ranksCache: 64 * 1024 * 1024,
  inputHistory: 4 * 1024 * 1024,
  journal: 256 * 1024 * 1024,
  lock: 4096,
} as const;

export type StateRead =
  | { readonly ok: true; readonly data: Buffer }
  | { readonly ok: false; readonly missing: boolean; readonly message: string };

export interface StateReader {
  /** Reads `file` (absolute, under `<root>/.tandem/`); a refusal other than "missing" is warned about once. */
  read(file: string, maxBytes: number): StateRead;
  /** Whether `file` may be used at all (not tracked by git, not planted as a link): for listings. */
  usable(file: string): boolean;
}

export interface StateReaderOptions {
  /** Repository-relative posix paths under `.tandem/` that git tracks: they came with the repository. */
  readonly tracked?: ReadonlySet<string>;
  /** One line for the user (a warning); default: none. */
  readonly warn?: (message: string) => void;
}

/** The file's own lstat (a link is not followed), or null when there is nothing there. */
export function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

function refused(message: string, missing = false): StateRead {
  return { ok: false, missing, message };
}

/** The file's path relative to the root, or null when it is not under `<root>/.tandem/`. */
function stateRelative(root: string, file: string): string | null {
  const rel = posixRelative(root, path.resolve(root, file));
  return rel.startsWith('.tandem/') && !rel.split('/').includes('..') ? rel : null;
}

/** Reads one state file under the rules above, without the tracked-files check. */
export function readStateFile(root: string, file: string, maxBytes: number): StateRead {
  const rel = stateRelative(root, file);
  if (rel === null) return refused(`${file} is not under .tandem/; not read`);
  // Every folder on the way must be a real folder: a `.tandem` or `sessions` link would lead out.
  const parts = rel.split('/');
  let at = root;
  for (const [i, part] of parts.entries()) {
    at = path.join(at, part);
    const st = lstatOrNull(at);
    if (st === null) return refused(`${rel} does not exist`, true);
    const last = i === parts.length - 1;
    if (st.isSymbolicLink()) return refused(`${rel} is ignored: ${parts.slice(0, i + 1).join('/')} is a symbolic link`);
    if (!last && !st.isDirectory()) return refused(`${rel} is ignored: ${parts.slice(0, i + 1).join('/')} is not a folder`);
    if (last && !st.isFile()) return refused(`${rel} is ignored: it is not a regular file (a FIFO, device or folder)`);
    if (last && st.size > maxBytes) return refused(`${rel} is ignored: ${st.size.toLocaleString('en-US')} bytes, over the ${maxBytes.toLocaleString('en-US')}-byte limit`);
  }
  return readAtMost(file, rel, maxBytes);
}

/**
 * A file the user named themselves (`--input-history-file`): it may lie anywhere, but is still read only when
 * it is a regular file under the cap, and never past it.
 */
export function readUserFile(file: string, maxBytes: number): StateRead {
  const st = lstatOrNull(file);
  if (st === null) return refused(`${file} does not exist`, true);
  if (!st.isFile()) return refused(`${file} is ignored: it is not a regular file`);
  if (st.size > maxBytes) return refused(`${file} is ignored: ${st.size.toLocaleString('en-US')} bytes, over the ${maxBytes.toLocaleString('en-US')}-byte limit`);
  return readAtMost(file, file, maxBytes);
}

/** Opened without following a link or blocking on a FIFO, and judged by the stat of what was opened: null when it is anything else or `accept` refuses it. */
export function openRegular(file: string, accept: (st: Stats) => boolean): { fd: number; stat: Stats } | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() && accept(stat)) return { fd, stat };
  } catch {
    // Falls through to close.
  }
  closeSync(fd);
  return null;
}

/** A regular file's bytes, opened as openRegular opens it: null when it is anything else, `accept` refuses it, or it cannot be read. */
export function readRegularFile(file: string, accept: (st: Stats) => boolean): { readonly data: Buffer; readonly stat: Stats } | null {
  const opened = openRegular(file, accept);
  if (opened === null) return null;
  const { fd, stat } = opened;
  try {
    const buffer = Buffer.allocUnsafe(stat.size);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return { data: buffer.subarray(0, length), stat };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function readAtMost(file: string, rel: string, maxBytes: number): StateRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refused(`${rel} is ignored: ${code ?? String(error)}`, code === 'ENOENT');
  }
  try {
    // Swapped for something else between the lstat and the open: check what was opened.
    const st = fstatSync(fd);
    if (!st.isFile()) return refused(`${rel} is ignored: it is not a regular file`);
    const buffer = Buffer.alloc(Math.min(maxBytes, st.size));
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return { ok: true, data: buffer.subarray(0, length) };
  } catch (error) {
    return refused(`${rel} is ignored: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  } finally {
    closeSync(fd);
  }
}

/** A reader for one repository: confined reads, files git tracks ignored, each refusal warned about once. */
export function createStateReader(root: string, options: StateReaderOptions = {}): StateReader {
  const warned = new Set<string>();
  const warn = (key: string, message: string): void => {
    if (warned.has(key)) return;
    warned.add(key);
    options.warn?.(message);
  };
  const trackedProblem = (file: string): string | null => {
    const rel = stateRelative(root, file);
    return rel !== null && options.tracked?.has(rel) ? `${rel} is ignored: git tracks it, so it came with the repository, not from this tandem` : null;
  };
  return {
    read(file, maxBytes) {
      // Files git tracks are named once at start (stateTrackedWarning), not at each read.
      const tracked = trackedProblem(file);
      if (tracked) return refused(tracked);
      const result = readStateFile(root, file, maxBytes);
      if (!result.ok && !result.missing) warn(file, result.message);
      return result;
    },
    usable(file) {
      const tracked = trackedProblem(file);
      const st = lstatOrNull(file);
      return tracked === null && st !== null && st.isFile();
    },
  };
}

/** The one warning naming the files in `.tandem/` that git tracks, or null when there are none. */
export function stateTrackedWarning(tracked: ReadonlySet<string>): string | null {
  if (tracked.size === 0) return null;
  const names = [...tracked].sort();
  const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
  return `git tracks ${shown} in .tandem/: they came with the repository, not from this tandem, and are ignored`;
}

/** The text of a state file, or '' when it is missing or refused. */
export function readStateText(reader: StateReader, file: string, maxBytes: number): string {
  const read = reader.read(file, maxBytes);
  return read.ok ? read.data.toString('utf8') : '';
}
