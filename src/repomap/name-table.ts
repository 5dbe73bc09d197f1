// One table of names shared by the packed tags of many files: tags then name a name by a global id,
// so the ranking counts and groups by integer instead of hashing some 400k (file, name) strings.
import { NameInterner } from './name-interner.js';
import type { PackedTags } from './packed-tags.js';

/** A few files' names are found by scanning the table; past that many scans, the index pays off. */
const MAX_SCANS = 8;
/** Scan only when the table has this many times more names than the file. */
const SCAN_RATIO = 64;
/** Tags naming a table at least this big name another cache's shared table (a pack's), not one file's names. */
const FOREIGN_TABLE_NAMES = 4096;

export class NameTable {
  /** Shared with every PackedTags adopted into the table (as their `names`); only ever grows. */
  readonly names: string[];
  // Built on the first lookup: a warm load that parses nothing never hashes a name.
  private index: NameInterner | undefined;
  // The table's id of each interned name (they differ only when a table read from disk holds a name twice).
  private tableIds = new Int32Array(0);
  private scans = 0;
  private readonly remaps = new WeakMap<readonly string[], Int32Array>();
  // Tables whose names were moved in whole into an empty table: their ids are this table's.
  private readonly wholes = new WeakSet<readonly string[]>();

  constructor(names: string[] = []) {
    this.names = names;
  }

  /** The id of `name`, added to the table when new. */
  idOf(name: string): number {
    const index = this.indexed();
    const before = index.size;
    const interned = index.idOf(name, true);
    return interned < before ? (this.tableIds[interned] as number) : this.added(interned, name);
  }

  private added(interned: number, name: string): number {
    const id = this.names.push(name) - 1;
    this.remember(interned, id);
    return id;
  }

  private remember(interned: number, id: number): void {
    if (interned >= this.tableIds.length) {
      const grown = new Int32Array(Math.max(1024, interned * 2));
      grown.set(this.tableIds);
      this.tableIds = grown;
    }
    this.tableIds[interned] = id;
  }

  private indexed(): NameInterner {
    if (this.index !== undefined) return this.index;
    const index = new NameInterner();
    this.index = index;
    // First occurrence wins, should a table read from disk hold a name twice.
    for (let id = 0; id < this.names.length; id++) {
      const before = index.size;
      const interned = index.idOf(this.names[id] ?? '', true);
      if (interned >= before) this.remember(interned, id);
    }
    return index;
  }

  /**
   * Ids of a few names in a big table without building its index: one pass over the table looking
   * each name up in a map of the few. A touched file in a big repository (a few hundred names
   * against hundreds of thousands) then costs a scan, not hashing every name into a map that the
   * rest of the process may never use.
   */
  private idsByScan(names: readonly string[]): Int32Array {
    this.scans++;
    const wanted = new Map<string, number>();
    names.forEach((name, i) => {
      if (!wanted.has(name)) wanted.set(name, i);
    });
    const ids = new Int32Array(names.length).fill(-1);
    for (let id = 0; id < this.names.length; id++) {
      const i = wanted.get(this.names[id] ?? '');
      // First occurrence wins, as in idOf.
      if (i !== undefined && ids[i] === -1) ids[i] = id;
    }
    names.forEach((name, i) => {
      const first = wanted.get(name) ?? i;
      if (ids[first] === -1) ids[first] = this.names.push(name) - 1;
      ids[i] = ids[first] ?? 0;
    });
    return ids;
  }

  /** Ids of names given as bytes (see PackedTags.nameBytes): UTF-8, separated by NUL. */
  private idsOfBytes(bytes: Buffer, count: number): Int32Array {
    const ids = new Int32Array(count);
    const index = this.indexed();
    let start = 0;
    for (let i = 0; i < count; i++) {
      const before = index.size;
      const interned = index.internRun(bytes, start);
      const end = index.runEnd;
      ids[i] = interned < before ? (this.tableIds[interned] as number) : this.added(interned, bytes.toString('utf8', start, end));
      start = end + 1;
    }
    return ids;
  }

  /** Adds names as they are (read from disk): no lookup, so no duplicate check either. */
  append(names: readonly string[]): void {
    for (const name of names) {
      const id = this.names.push(name) - 1;
      if (this.index === undefined) continue;
      const before = this.index.size;
      const interned = this.index.idOf(name, true);
      if (interned >= before) this.remember(interned, id);
    }
  }

  /** The same tags with name indices into this table: `packed` itself when they already are. */
  adopt(packed: PackedTags): PackedTags {
    // Tags with their names as bytes are never the table's own (and reading `names` would split them).
    const { nameBytes } = packed;
    if (nameBytes === undefined && packed.names === this.names) return packed;
    // Tags of a table whose names moved in whole keep their ids: no copy to make.
    if (nameBytes === undefined && this.wholes.has(packed.names)) return { names: this.names, kinds: packed.kinds, data: packed.data };
    const data = packed.data.slice();
    // A few files in a big table are found by a scan, their names as bytes too (a touched file whose
    // content the user's shared cache holds): interning their bytes would first index every name.
    const scan = this.index === undefined && this.scans < MAX_SCANS && (nameBytes?.count ?? packed.names.length) * SCAN_RATIO < this.names.length;
    const local = nameBytes !== undefined
      ? scan ? this.idsByScan(packed.names) : this.idsOfBytes(nameBytes.bytes, nameBytes.count)
      : packed.names.length >= FOREIGN_TABLE_NAMES
        ? this.remapOf(packed.names, data)
      : scan
        ? this.idsByScan(packed.names)
        : this.idsOf(packed.names);
    for (let i = 0; i < data.length; i += 4) data[i] = local[data[i] ?? 0] ?? 0;
    return { names: this.names, kinds: packed.kinds, data };
  }

  /**
   * Ids for another table's names (a pack's, see tag-pack.ts), worked out once for all the tags
   * that name it and only for the names `data` uses. Into an empty table the names move whole.
   */
  private remapOf(names: readonly string[], data: Int32Array): Int32Array {
    let remap = this.remaps.get(names);
    if (remap === undefined) {
      remap = new Int32Array(names.length).fill(-1);
      this.remaps.set(names, remap);
      if (this.names.length === 0 && this.index === undefined) {
        for (let id = 0; id < names.length; id++) remap[id] = this.names.push(names[id] ?? '') - 1;
        this.wholes.add(names);
      }
    }
    for (let i = 0; i < data.length; i += 4) {
      const id = data[i] ?? 0;
      if (remap[id] === -1) remap[id] = this.idOf(names[id] ?? '');
    }
    return remap;
  }

  private idsOf(names: readonly string[]): Int32Array {
    const ids = new Int32Array(names.length);
    for (let i = 0; i < names.length; i++) ids[i] = this.idOf(names[i] ?? '');
    return ids;
  }
}

/** True when every packed table names its names through the same array (one NameTable). */
export function sharesOneTable(packs: readonly PackedTags[]): boolean {
  const first = packs[0];
  return packs.every((packed) => packed.names === first?.names);
}

/**
 * A fresh table holding only the names `packs` use, in order of first use, and for each pack the map
 * from its name ids to the table's (`remapOf(packed)[oldId]`), without copying the packs.
 */
export function compactNameIds(packs: readonly PackedTags[]): { table: NameTable; remapOf: (packed: PackedTags) => Int32Array } {
  const table = new NameTable();
  // Packs of one table map ids through an array; packs of separate tables must meet on equal strings.
  const viaArray = sharesOneTable(packs);
  const remaps = new Map<readonly string[], Int32Array>();
  for (const packed of packs) {
    let remap = remaps.get(packed.names);
    if (remap === undefined) {
      remap = new Int32Array(packed.names.length).fill(-1);
      remaps.set(packed.names, remap);
    }
    for (let i = 0; i < packed.data.length; i += 4) {
      const old = packed.data[i] ?? 0;
      if ((remap[old] ?? -1) >= 0) continue;
      const name = packed.names[old] ?? '';
      remap[old] = viaArray ? table.names.push(name) - 1 : table.idOf(name);
    }
  }
  return { table, remapOf: (packed) => remaps.get(packed.names) ?? new Int32Array(0) };
}

/**
 * A fresh table holding only the names `packs` use, in order of first use, and the packs remapped
 * to it: what the cache writes when it rewrites its file, dropping names of files gone since.
 */
export function compactNames(packs: readonly PackedTags[]): { table: NameTable; packs: PackedTags[] } {
  const { table, remapOf } = compactNameIds(packs);
  const remapped = packs.map((packed): PackedTags => {
    const remap = remapOf(packed);
    const data = packed.data.slice();
    for (let i = 0; i < data.length; i += 4) data[i] = remap[data[i] ?? 0] ?? 0;
    return { names: table.names, kinds: packed.kinds, data };
  });
  return { table, packs: remapped };
}
