// git's index read by tandem itself: the entries `ls-files -s -v` would list, without a git process.
// Only an index this reader can check completely is read (versions 2 to 4, its trailing hash intact,
// no split index, no sparse directories); for anything else the answer is null and the caller asks
// git. The file comes from the repository, so every length in it is checked against the bytes read.
import { createHash } from 'node:crypto';
import { nodeFileSystem as fs } from '../platform/file-system.js';
import { listIndex, type IndexEntry } from './ls-files.js';
import type { Git } from './repo.js';

/** Above this size the index is left to git (its hash alone would take longer than a git process). */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
const SIGNATURE = 'DIRC';
/** Bytes of an entry's stat data and mode before its object id (ctime, mtime, dev, ino, mode, uid, gid, size). */
const STAT_BYTES = 40;
const MODE_AT = 24;
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE_MASK = 0x3000;
const NAME_MASK = 0x0fff;
const SKIP_WORKTREE = 0x4000;
/** A sparse index's folder entries: `ls-files` expands them, this reader does not. */
const TREE_MODE = 0o040000;
/** The extended flags git knows: skip-worktree and intent-to-add; any other bit is a format git refuses too. */
const KNOWN_EXTENDED = 0x4000 | 0x2000;
/** More than any path's length: a larger strip count in a v4 entry is a broken file. */
const MAX_STRIP = 0xffffff;
/** Object formats by the length of their ids, tried in turn against the index's trailing hash. */
const FORMATS: ReadonlyArray<readonly [algorithm: string, bytes: number]> = [
  ['sha1', 20],
  ['sha256', 32],
];

/**
 * Every entry of the index file `bytes`, as `ls-files -s -v -z` lists them (index order, every stage), or
 * null when the file is one this reader does not take on: another version, a hash that does not match
 * (a torn or foreign file, or `index.skipHash`), a split or sparse index, an extension git requires and
 * this reader does not know, or any length that runs past the bytes.
 */
export function parseIndexFile(bytes: Buffer): IndexEntry[] | null {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== SIGNATURE) return null;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const idBytes = checkedIdLength(bytes);
  if (idBytes === null) return null;
  const end = bytes.length - idBytes;
  const count = bytes.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let n = 0; n < count; n++) {
    const start = at;
    if (at + STAT_BYTES + idBytes + 2 > end) return null;
    const mode = bytes.readUInt32BE(at + MODE_AT);
    const object = bytes.toString('hex', at + STAT_BYTES, at + STAT_BYTES + idBytes);
    at += STAT_BYTES + idBytes;
    const flags = bytes.readUInt16BE(at);
    at += 2;
    let extended = 0;
    if (flags & EXTENDED) {
      if (version < 3 || at + 2 > end) return null;
      extended = bytes.readUInt16BE(at);
      if (extended & ~KNOWN_EXTENDED) return null;
      at += 2;
    }
    let name: Buffer;
    if (version === 4) {
      const strip = readVarint(bytes, at, end);
      if (strip === null || strip.value > previous.length) return null;
      at = strip.next;
      const nul = bytes.indexOf(0, at);
      if (nul < 0 || nul >= end) return null;
      name = Buffer.concat([previous.subarray(0, previous.length - strip.value), bytes.subarray(at, nul)]);
      at = nul + 1;
    } else {
      const nul = bytes.indexOf(0, at);
      if (nul < 0 || nul >= end) return null;
      name = bytes.subarray(at, nul);
      // Entries of versions 2 and 3 are padded with 1 to 8 NULs to a multiple of 8 bytes.
      at = start + ((nul - start + 8) & ~7);
      if (at > end) return null;
    }
    // The flags carry the name's length too (NAME_MASK for any longer name).
    if (Math.min(name.length, NAME_MASK) !== (flags & NAME_MASK)) return null;
    previous = name;
    if ((mode & 0o170000) === TREE_MODE) return null;
    const stage = (flags & STAGE_MASK) >> 12;
    entries.push({ tag: tagOf(stage, extended, flags), mode: mode.toString(8).padStart(6, '0'), object, stage, path: name.toString('utf8') });
  }
  return extensionsUnderstood(bytes, at, end) ? entries : null;
}

/** The length of the object ids when the index's trailing hash matches its content by one of the formats, else null. */
function checkedIdLength(bytes: Buffer): number | null {
  for (const [algorithm, size] of FORMATS) {
    if (bytes.length < 12 + size) continue;
    const body = bytes.subarray(0, bytes.length - size);
    if (createHash(algorithm).update(body).digest().equals(bytes.subarray(bytes.length - size))) return size;
  }
  return null;
}

/** git's offset varint (index v4 path compression): big-endian groups of 7 bits, each continuation adding one. */
function readVarint(bytes: Buffer, at: number, end: number): { value: number; next: number } | null {
  if (at >= end) return null;
  let c = bytes[at++]!;
  let value = c & 0x7f;
  while (c & 0x80) {
    if (at >= end || value > MAX_STRIP) return null;
    c = bytes[at++]!;
    value = (value + 1) * 128 + (c & 0x7f);
  }
  return { value, next: at };
}

/** `ls-files -v`'s tag: M unmerged, S skip-worktree, H cached; lower case when assume-unchanged. */
function tagOf(stage: number, extended: number, flags: number): string {
  const tag = stage !== 0 ? 'M' : extended & SKIP_WORKTREE ? 'S' : 'H';
  return flags & ASSUME_VALID ? tag.toLowerCase() : tag;
}

/**
 * Whether every extension after the entries is one this reader may skip: an optional one (its signature
 * starts with an upper-case letter: the cache tree, resolve-undo, untracked cache, fsmonitor...). A
 * required one (`link`: split index, `sdir`: sparse index) changes what the entries mean.
 */
function extensionsUnderstood(bytes: Buffer, at: number, end: number): boolean {
  while (at < end) {
    if (at + 8 > end) return false;
    const first = bytes[at]!;
    if (first < 0x41 || first > 0x5a) return false;
    const size = bytes.readUInt32BE(at + 4);
    at += 8 + size;
    if (at > end) return false;
  }
  return true;
}

/**
 * The entries of the index file at `file`, or null when it cannot be read here: not there (git answers for
 * a repository without one), not a regular file, too large, or one parseIndexFile does not take on.
 */
export function readIndexFile(file: string): IndexEntry[] | null {
  // lstat first: the repository may put a link (to /dev/zero) or a fifo where the index should be.
  const info = fs.lstatIfAnySync(file);
  if (!info || !info.isFile() || info.size > MAX_INDEX_BYTES) return null;
  const bytes = fs.readHeadSync(file, Buffer.alloc(info.size + 1));
  // A size other than the one stat gave: git replaced the file meanwhile; git itself answers.
  if (!bytes || bytes.length !== info.size) return null;
  return parseIndexFile(bytes);
}

/**
 * readIndexFile of `git`'s index when where it lives is known already this run (findRepoRoot asked git with
 * the top folder); null otherwise: finding out would cost the git process reading it saves.
 */
export async function readKnownIndexFile(git: Git): Promise<IndexEntry[] | null> {
  const known = git.guard.gitPaths;
  const file = known ? (await known.catch(() => null))?.get('index') : undefined;
  return file ? readIndexFile(file) : null;
}

/** Every index entry with its tag, mode and stage: read from the file when readKnownIndexFile can, else listed by `git ls-files`. */
export async function indexEntries(git: Git): Promise<IndexEntry[]> {
  return (await readKnownIndexFile(git)) ?? listIndex(git);
}
