// The user's tag cache shared by every checkout: a file's tags keyed by its content (its git blob
// id) and the language, grammar and query versions that made them, so a second clone, a worktree
// or a branch switch parses only content this user never parsed before. Entries are tandem's own
// data derived from contents by hash, kept outside every repository (src/platform/tag-store.ts);
// an entry that is torn, foreign or of another version reads as absent.
import { createHash, hash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { digestFolder } from '../platform/tag-files.js';
import { createTagStore, type TagStore } from '../platform/tag-store.js';
import { grammarVersions, type LanguageId } from '../platform/tree-sitter.js';
import { isWellFormed, packedWithNameBytes, type PackedTags } from './packed-tags.js';
import { TAG_CACHE_VERSION } from './tag-cache.js';
import { checkedEntry, encodePack, PACK_MIN_USE, readPacks, type PackedByContent, type PackEntry } from './tag-pack.js';

const MAGIC = Buffer.from('TNDTAGS1');
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export interface SharedTags {
  /**
   * The stored tags of this content in this language (names local to the file), or null. With
   * `size`, only tags made from content of exactly that many bytes: a blob id taken from git's
   * index names the content after git's clean filter and end-of-line conversion, and the size of
   * the file in the work tree tells a converted file (whose bytes differ) from an unconverted one.
   */
  get(lang: LanguageId, blobId: string, size?: number): PackedTags | null;
  /** Remembers tags to store on the next flush (names may be local or a shared table's); `size`: the content's bytes. */
  put(lang: LanguageId, blobId: string, packed: PackedTags, size?: number): void;
  /** Writes what was put since the last flush, refreshes the entries read, and prunes now and then. */
  flush(): Promise<void>;
  /**
   * Reads the packs that hold many of these contents, so get() finds them without a read each
   * (see tag-pack.ts); they are kept until the next flush.
   */
  prefetch?(wanted: readonly { readonly lang: LanguageId; readonly blob: string }[]): void;
}

export { blobId } from './parse-file.js';

/** What besides a file's content shapes its tags: tag format, grammar and runtime versions, the queries. */
export function tagsVersion(queriesDir: string): string {
  return JSON.stringify([TAG_CACHE_VERSION, grammarVersions(), digestFolder(queriesDir, '.scm'), LITTLE_ENDIAN ? 'le' : 'be']);
}

/** The shared cache in `dir` (see --tag-cache-dir) for tags made with the queries in `queriesDir`. */
export function openSharedTags(dir: string, queriesDir: string, maxBytes?: number): SharedTags {
  return createSharedTags(createTagStore({ dir, ...(maxBytes === undefined ? {} : { maxBytes }) }), tagsVersion(queriesDir));
}

/**
 * `version` names everything besides the content that shapes a file's tags: the tag format, the
 * grammar and runtime versions and the queries' digest (see tagsVersion).
 */
export function createSharedTags(store: TagStore, version: string): SharedTags {
  const pending = new Map<string, { lang: LanguageId; blob: string; packed: PackedTags; size: number | undefined }>();
  // Contents read from their own files since the last flush: many of them go into a pack.
  const loose = new Map<string, PackEntry>();
  let packed: PackedByContent = new Map();
  const keyOf = (lang: LanguageId, blob: string): string => sha1Hex(`${version}\0${lang}\0${blob}`);
  const fromPack = (lang: LanguageId, blob: string, size: number | undefined): PackedTags | null => {
    const entry = packed.get(blob);
    if (entry === undefined || entry.lang !== lang || (size !== undefined && entry.size !== size)) return null;
    return checkedEntry(entry.packed);
  };
  return {
    get(lang, blob, size) {
      const inPack = fromPack(lang, blob, size);
      if (inPack !== null) return inPack;
      const bytes = store.read(keyOf(lang, blob));
      const found = bytes === null ? null : decodeEntry(bytes, { version, lang, blob, ...(size === undefined ? {} : { size }) });
      if (found !== null) loose.set(`${lang}\0${blob}`, { lang, blob, size: size ?? -1, packed: found });
      return found;
    },
    put(lang, blob, packed, size) {
      pending.set(keyOf(lang, blob), { lang, blob, packed, size });
    },
    prefetch(wanted) {
      // By blob id alone: the same content wanted in two languages is looked up in its own file the second time.
      const blobs = new Map(wanted.map(({ lang, blob }) => [blob, lang]));
      if (blobs.size >= PACK_MIN_USE) packed = readPacks(store, version, blobs);
    },
    async flush() {
      const entries = [...pending].map(([key, { lang, blob, packed, size }]) => ({ key, bytes: () => encodeEntry({ version, lang, blob, ...(size === undefined ? {} : { size }) }, packed) }));
      for (const { lang, blob, packed, size } of pending.values()) loose.set(`${lang}\0${blob}`, { lang, blob, size: size ?? -1, packed });
      const pack = loose.size >= PACK_MIN_ENTRIES ? [...loose.values()] : [];
      pending.clear();
      loose.clear();
      packed = new Map();
      await store.write(entries);
      // Many contents not in a pack (a first clone, a big branch switch): the next checkout reads them in one go.
      const bytes = pack.length > 0 ? encodePack(version, pack) : null;
      if (bytes !== null) await store.writePack(bytes);
      await store.prune();
    },
  };
}

/** A flush packs the contents it put or read from their own files when there are at least this many. */
export const PACK_MIN_ENTRIES = 256;

/** One-shot hashing (Node 20.12+) skips the Hash object thousands of lookups would each make. */
function sha1Hex(text: string): string {
  return typeof hash === 'function' ? hash('sha1', text, 'hex') : createHash('sha1').update(text).digest('hex');
}

/** A shared cache that keeps what `find` found until the first get() of it (see keepingFinds). */
export interface KeepingSharedTags extends SharedTags {
  /** Whether the entry is there; when it is, it is kept for one get(). */
  find(lang: LanguageId, blobId: string, size: number): boolean;
  /** Drops what was found and not taken. */
  forget(): void;
}

/**
 * `shared` keeping the entries `find` found until a get() takes each: the listing looks contents up
 * by the index's blob ids (a content found there needs no head read), and the collection then takes
 * the same entries without reading and decoding them twice.
 */
export function keepingFinds(shared: SharedTags): KeepingSharedTags {
  // An absence is kept too (null): the collection then does not look for it again.
  const kept = new Map<string, PackedTags | null>();
  const keyOf = (lang: LanguageId, blob: string, size: number | undefined): string => `${lang}\0${blob}\0${size ?? ''}`;
  return {
    find(lang, blob, size) {
      const key = keyOf(lang, blob, size);
      let packed = kept.get(key);
      if (packed === undefined) {
        packed = shared.get(lang, blob, size);
        kept.set(key, packed);
      }
      return packed !== null;
    },
    get(lang, blob, size) {
      const key = keyOf(lang, blob, size);
      const packed = kept.get(key);
      if (packed === undefined) return shared.get(lang, blob, size);
      kept.delete(key);
      return packed;
    },
    put: (lang, blob, packed, size) => shared.put(lang, blob, packed, size),
    flush: () => shared.flush(),
    prefetch: (wanted) => shared.prefetch?.(wanted),
    forget: () => kept.clear(),
  };
}

interface EntryHeader {
  readonly version: string;
  readonly lang: string;
  readonly blob: string;
  /** Bytes of the content the tags were made from (absent in entries put without it). */
  readonly size?: number;
}

/**
 * Format: "TNDTAGS1", u32 LE length of a JSON header ({version, lang, blob, size?, names: count,
 * kinds, tuples}), the header, u32 LE length of the names joined by NUL, the names, zero padding to a
 * multiple of 4, then the tuples (4 int32 LE each, see PackedTags). Null when a name holds a NUL.
 */
export function encodeEntry(header: EntryHeader, packed: PackedTags): Uint8Array | null {
  const local = localNames(packed);
  if (local.names.some((name) => name.includes('\0'))) return null;
  const json = Buffer.from(JSON.stringify({ ...header, names: local.names.length, kinds: packed.kinds, tuples: local.data.length / 4 }));
  const names = Buffer.from(local.names.join('\0'));
  const headLength = MAGIC.length + 4 + json.length + 4 + names.length;
  const padded = headLength + ((4 - (headLength % 4)) % 4);
  const out = Buffer.alloc(padded + local.data.byteLength);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(json.length, MAGIC.length);
  json.copy(out, MAGIC.length + 4);
  out.writeUInt32LE(names.length, MAGIC.length + 4 + json.length);
  names.copy(out, MAGIC.length + 8 + json.length);
  if (LITTLE_ENDIAN) out.set(new Uint8Array(local.data.buffer, local.data.byteOffset, local.data.byteLength), padded);
  else local.data.forEach((value, i) => out.writeInt32LE(value, padded + i * 4));
  return out;
}

/** The entry's tags when it is whole, well formed and made for exactly `expected` (its size too, when given); else null. */
export function decodeEntry(bytes: Buffer, expected: EntryHeader): PackedTags | null {
  try {
    if (bytes.length < MAGIC.length + 8 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return null;
    const jsonLength = bytes.readUInt32LE(MAGIC.length);
    const namesAt = MAGIC.length + 4 + jsonLength;
    if (namesAt + 4 > bytes.length) return null;
    const header = JSON.parse(bytes.toString('utf8', MAGIC.length + 4, namesAt)) as Record<string, unknown>;
    if (header['version'] !== expected.version || header['lang'] !== expected.lang || header['blob'] !== expected.blob) return null;
    if (expected.size !== undefined && header['size'] !== expected.size) return null;
    const { names: nameCount, kinds, tuples } = header;
    if (typeof nameCount !== 'number' || typeof tuples !== 'number' || !Array.isArray(kinds) || !kinds.every((k) => typeof k === 'string')) return null;
    const namesLength = bytes.readUInt32LE(namesAt);
    const namesEnd = namesAt + 4 + namesLength;
    const dataAt = namesEnd + ((4 - (namesEnd % 4)) % 4);
    // Exactly as long as the header says: a torn (truncated) or padded file is not this entry.
    if (!Number.isInteger(tuples) || tuples < 0 || dataAt + tuples * 16 !== bytes.length) return null;
    const nameBytes = bytes.subarray(namesAt + 4, namesEnd);
    if (!holdsNames(nameBytes, nameCount) || !isUtf8(nameBytes)) return null;
    const data = viewOrCopy(bytes, dataAt, tuples * 4);
    const packed = packedWithNameBytes({ bytes: nameBytes, count: nameCount }, kinds as string[], data);
    return isWellFormed(packed, nameCount) ? packed : null;
  } catch {
    return null;
  }
}

/** Whether `bytes` holds exactly `count` names separated by NUL. */
function holdsNames(bytes: Buffer, count: number): boolean {
  if (!Number.isInteger(count) || count < 0) return false;
  if (count === 0) return bytes.length === 0;
  let separators = 0;
  for (let at = bytes.indexOf(0); at >= 0; at = bytes.indexOf(0, at + 1)) separators++;
  return separators === count - 1;
}

/**
 * The tuples at `at`: a view of the entry's bytes when they are aligned (the caller's cache copies
 * the tags as it adopts their names, so a copy here would be made only to be dropped), else a copy.
 */
function viewOrCopy(bytes: Buffer, at: number, length: number): Int32Array {
  if (LITTLE_ENDIAN && (bytes.byteOffset + at) % 4 === 0) return new Int32Array(bytes.buffer, bytes.byteOffset + at, length);
  const data = new Int32Array(length);
  if (LITTLE_ENDIAN) new Uint8Array(data.buffer).set(bytes.subarray(at, at + length * 4));
  else for (let i = 0; i < length; i++) data[i] = bytes.readInt32LE(at + i * 4);
  return data;
}

/** The tags with only the names they use, numbered from 0 (a shared table's tags made local). */
function localNames(packed: PackedTags): PackedTags {
  const { data } = packed;
  const remap = new Map<number, number>();
  const names: string[] = [];
  const out = new Int32Array(data.length);
  for (let i = 0; i < data.length; i += 4) {
    const id = data[i] ?? 0;
    let local = remap.get(id);
    if (local === undefined) {
      local = names.push(packed.names[id] ?? '') - 1;
      remap.set(id, local);
    }
    out[i] = local;
    out[i + 1] = data[i + 1] ?? 0;
    out[i + 2] = data[i + 2] ?? 0;
    out[i + 3] = data[i + 3] ?? 0;
  }
  return { names, kinds: packed.kinds, data: out };
}
