// One file's tags as a few strings and one Int32Array, the form they cross between threads in.
import type { Tag } from './tag.js';

export interface PackedTags {
  /** Distinct names of the file, in first-use order. */
  readonly names: readonly string[];
  /** Distinct `role:kind` pairs of the file. */
  readonly kinds: readonly string[];
  /**
   * Four numbers per tag: name index, kind index, line, and for a definition its endLine, for a
   * reference the number of references of that name and kind in the file (line is the first's).
   * The ranking only counts references, so one tuple per referenced name is all it needs: on real
   * code (type annotations, calls) that is 2-3x fewer tuples to pack, move, cache and index.
   */
  readonly data: Int32Array;
  /**
   * The same names as they lay on disk, UTF-8 joined by NUL (`count` of them), when the tags were
   * read from the user's shared cache: a name table interns them from the bytes, and `names` is
   * made only if something else asks for it.
   */
  readonly nameBytes?: NameBytes;
}

export interface NameBytes {
  readonly bytes: Buffer;
  readonly count: number;
}

/** Tags whose names stay bytes until `names` is read (then split once). */
export function packedWithNameBytes(nameBytes: NameBytes, kinds: readonly string[], data: Int32Array): PackedTags {
  let names: readonly string[] | undefined;
  return {
    get names() {
      names ??= nameBytes.count === 0 ? [] : nameBytes.bytes.toString('utf8').split('\0');
      return names;
    },
    kinds,
    data,
    nameBytes,
  };
}

export function packTags(tags: readonly Tag[]): PackedTags {
  const names: string[] = [];
  const kinds: string[] = [];
  const nameIndex = new Map<string, number>();
  const kindIndex = new Map<string, number>();
  const data = new Int32Array(tags.length * 4);
  // Slot of the tuple already holding a (name, ref kind) pair, keyed by name * kinds + kind.
  const refSlots = new Map<number, number>();
  let length = 0;
  for (const tag of tags) {
    let name = nameIndex.get(tag.name);
    if (name === undefined) {
      name = names.push(tag.name) - 1;
      nameIndex.set(tag.name, name);
    }
    const kindKey = `${tag.role}:${tag.kind}`;
    let kind = kindIndex.get(kindKey);
    if (kind === undefined) {
      kind = kinds.push(kindKey) - 1;
      kindIndex.set(kindKey, kind);
    }
    if (tag.role === 'ref') {
      const key = name * 4096 + kind;
      const slot = refSlots.get(key);
      if (slot !== undefined) {
        data[slot + 3] = (data[slot + 3] ?? 0) + 1;
        continue;
      }
      refSlots.set(key, length);
    }
    data[length] = name;
    data[length + 1] = kind;
    data[length + 2] = tag.line;
    data[length + 3] = tag.role === 'ref' ? 1 : tag.endLine;
    length += 4;
  }
  return { names, kinds, data: length === data.length ? data : data.slice(0, length) };
}

/** How many references one packed reference tuple stands for. */
export function referenceCount(data: Int32Array, offset: number): number {
  return Math.max(1, data[offset + 3] ?? 1);
}

/** The tags back as objects: definitions as packed, each reference once (its first line). */
export function unpackTags(path: string, packed: PackedTags): Tag[] {
  const kinds = packed.kinds.map((key) => {
    const colon = key.indexOf(':');
    return { role: key.slice(0, colon) as Tag['role'], kind: key.slice(colon + 1) };
  });
  const tags: Tag[] = [];
  const { data, names } = packed;
  for (let i = 0; i < data.length; i += 4) {
    const kind = kinds[data[i + 1] ?? 0] ?? { role: 'ref', kind: 'identifier' };
    const line = data[i + 2] ?? 0;
    tags.push({ path, name: names[data[i] ?? 0] ?? '', role: kind.role, kind: kind.kind, line, endLine: kind.role === 'ref' ? line : (data[i + 3] ?? 0) });
  }
  return tags;
}

/** A file's tags as objects (tests, small callers) or packed (the cache and the workers). */
export type FileTags = readonly Tag[] | PackedTags;

export function isPacked(tags: FileTags): tags is PackedTags {
  return !Array.isArray(tags);
}

export function toPacked(tags: FileTags): PackedTags {
  return isPacked(tags) ? tags : packTags(tags);
}

export function tagCount(tags: FileTags): number {
  return isPacked(tags) ? tags.data.length / 4 : tags.length;
}

/** For each kind index: whether it is a definition kind. */
export function definitionKinds(packed: PackedTags): boolean[] {
  return packed.kinds.map((key) => key.startsWith('def:'));
}

/** Only the definitions, as Tag objects: the ranking and the renderer need no reference objects. */
export function definitionsOf(path: string, tags: FileTags): Tag[] {
  if (!isPacked(tags)) return tags.filter((tag) => tag.role === 'def');
  const defKinds = definitionKinds(tags);
  const kindNames = tags.kinds.map((key) => key.slice(key.indexOf(':') + 1));
  const defs: Tag[] = [];
  const { data, names } = tags;
  for (let i = 0; i < data.length; i += 4) {
    const kind = data[i + 1] ?? 0;
    if (defKinds[kind] !== true) continue;
    defs.push({ path, name: names[data[i] ?? 0] ?? '', role: 'def', kind: kindNames[kind] ?? '', line: data[i + 2] ?? 0, endLine: data[i + 3] ?? 0 });
  }
  return defs;
}

/**
 * True when every index in `data` points into `names` and `kinds` and every kind is `def:` or
 * `ref:` with a name: what a packed table read from disk must satisfy before it is used.
 */
export function isWellFormed(packed: PackedTags, nameCount = packed.names.length): boolean {
  const { data, kinds } = packed;
  if (data.length % 4 !== 0) return false;
  for (const key of kinds) {
    if (!(key.startsWith('def:') || key.startsWith('ref:')) || key.length < 5) return false;
  }
  for (let i = 0; i < data.length; i += 4) {
    const n = data[i] ?? -1;
    const k = data[i + 1] ?? -1;
    if (n < 0 || n >= nameCount || k < 0 || k >= kinds.length) return false;
  }
  return true;
}
