// Reading text files for the chat: the one read path for file contents shown to the model (chat
// files, AGENTS.md, config files). Reading is confined like writing: inside the repository after
// symlinks, regular files only, and never more than a cap, checked before reading.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { isBelow } from './path-inside.js';
import { TandemError } from './errors.js';

/** Chat and read-only files larger than this are not sent (the same cap edits use). */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;

export type ReadRefusalKind = 'missing' | 'outside_repo' | 'not_regular' | 'too_large' | 'unreadable';

export type ConfinedRead =
  | { readonly ok: true; readonly text: string; /** Only the first maxBytes were read. */ readonly truncated: boolean; readonly size: number }
  | { readonly ok: false; readonly kind: ReadRefusalKind; readonly message: string };

export interface ConfinedReadOptions {
  /** When set, the file's real path (after symlinks) must lie inside this folder's real path. */
  readonly root?: string | null;
  readonly maxBytes?: number;
  /** Read the first maxBytes of a larger file instead of refusing it. */
  readonly truncate?: boolean;
  /** How the file is named in messages. */
  readonly shown?: string;
  /** Refuse a symbolic link even when it points inside (state files tandem writes itself are never links). */
  readonly refuseLinks?: boolean;
}

/** A refused read where the reader must throw (a config file): `kind` says why, as in ConfinedRead. */
export class ReadRefusedError extends TandemError {
  constructor(
    readonly kind: ReadRefusalKind,
    message: string,
  ) {
    super(message);
  }
}

function refuse(kind: ReadRefusalKind, message: string): Extract<ConfinedRead, { ok: false }> {
  return { ok: false, kind, message };
}

export type ConfinedBytes =
  | { readonly ok: true; readonly bytes: Buffer; readonly truncated: boolean; readonly size: number }
  | Extract<ConfinedRead, { ok: false }>;

/**
 * Reads `path` as UTF-8 text ('\n' line endings, no BOM) within the limits. `/dev/zero`, FIFOs,
 * sockets and huge files are refused (or cut) before more than the cap is read, and never block.
 */
export function readConfinedText(path: string, options: ConfinedReadOptions = {}): ConfinedRead {
  const read = readConfinedBytes(path, options);
  if (!read.ok) return read;
  const text = read.bytes.toString('utf8').replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  return { ok: true, text, truncated: read.truncated, size: read.size };
}

/** The same confined read as readConfinedText, as bytes (images). */
export function readConfinedBytes(path: string, options: ConfinedReadOptions = {}): ConfinedBytes {
  const shown = options.shown ?? path;
  const maxBytes = options.maxBytes ?? MAX_TEXT_FILE_BYTES;
  let size: number;
  try {
    if (options.refuseLinks && lstatSync(path).isSymbolicLink()) return refuse('not_regular', `${shown} is a symbolic link; not read`);
    const st = statSync(path);
    if (options.root) {
      const real = realpathSync(path);
      if (!isBelow(realpathSync(options.root), real)) return refuse('outside_repo', `${shown} leads outside the repository (to ${real}); not read`);
    }
    if (!st.isFile()) return refuse('not_regular', `${shown} is not a regular file; not read`);
    size = st.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('missing', `${shown} does not exist`);
    return refuse('unreadable', `${shown} cannot be read: ${code ?? String(error)}`);
  }
  if (size > maxBytes && !options.truncate) {
    return refuse('too_large', `${shown} is ${size.toLocaleString('en-US')} bytes, over the ${maxBytes.toLocaleString('en-US')}-byte limit; not read`);
  }
  return readAtMost(path, shown, maxBytes);
}

/** Opens without blocking (a FIFO swapped in after the stat) and reads no more than `maxBytes`. */
function readAtMost(path: string, shown: string, maxBytes: number): ConfinedBytes {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return refuse('unreadable', `${shown} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return refuse('not_regular', `${shown} is not a regular file; not read`);
    // files like those in /proc report size 0 yet have content: read them up to the cap
    const buffer = Buffer.alloc((st.size === 0 ? maxBytes : Math.min(maxBytes, st.size)) + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    const truncated = length > maxBytes || st.size > maxBytes;
    return { ok: true, bytes: buffer.subarray(0, Math.min(length, maxBytes)), truncated, size: st.size };
  } catch (error) {
    return refuse('unreadable', `${shown} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  } finally {
    closeSync(fd);
  }
}
