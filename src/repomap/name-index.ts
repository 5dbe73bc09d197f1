// The ranking's index of a repository's tags: files and names as small integers over one shared
// table of names, with each name's defining files and each file's referenced names and counts.
import { NameTable, sharesOneTable } from './name-table.js';
import { definitionKinds, referenceCount, toPacked, type FileTags, type PackedTags } from './packed-tags.js';
import type { Tag } from './tag.js';

/**
 * Names and files as small integers, so the hot loops touch typed arrays rather than maps and
 * strings. Name ids are those of one shared table of names (the tag cache's, or one built here).
 */
export interface NameIndex {
  readonly files: string[];
  readonly fileIds: Map<string, number>;
  /** The shared table: name id -> name. */
  readonly names: readonly string[];
  /** Defining files of name id n, ascending: definerFiles[definerStart[n] .. definerStart[n + 1]). */
  readonly definerStart: Int32Array;
  readonly definerFiles: Int32Array;
  /** file id -> referenced (and defined) name ids and their counts (parallel arrays). */
  readonly refNames: number[][];
  readonly refCounts: number[][];
  /** The files' packed tags on the shared table, by file id. */
  readonly packs: readonly PackedTags[];
  /**
   * The distinct definitions (name and line), file after file: file f's are defStart[f] ..
   * defStart[f + 1]; definition k is the tuple at defOffset[k] of packs[defFile[k]], named defName[k].
   * Numbers, not Tag objects: only the few a map shows become objects (definitionTag).
   */
  readonly defStart: Int32Array;
  readonly defFile: Int32Array;
  readonly defOffset: Int32Array;
  readonly defName: Int32Array;
  /** Definition k's (name, file) pair as its slot in definerFiles (where its rank is kept). */
  readonly defSlot: Int32Array;
}

/** Above any line number of a file within the size limit; keeps name * LINE_SPAN + line exact. */
const LINE_SPAN = 2 ** 24;

/** One file's packed tags (names in the shared table) and which of its kinds are definitions. */
interface FileScan {
  readonly packed: PackedTags;
  readonly isDef: readonly boolean[];
}

/** The files' packed tags on one table of names: as they come from the cache, or moved onto a new one. */
function onOneTable(packs: readonly PackedTags[]): { names: readonly string[]; packs: readonly PackedTags[] } {
  if (packs.length > 0 && sharesOneTable(packs)) return { names: packs[0]?.names ?? [], packs };
  const table = new NameTable();
  return { names: table.names, packs: packs.map((packed) => table.adopt(packed)) };
}

export function indexTags(tagsByFile: ReadonlyMap<string, FileTags>): NameIndex {
  const files = [...tagsByFile.keys()].sort();
  const fileIds = new Map(files.map((file, i) => [file, i]));
  const { names, packs } = onOneTable(files.map((file) => toPacked(tagsByFile.get(file) ?? [])));
  const scans: FileScan[] = packs.map((packed) => ({ packed, isDef: definitionKinds(packed) }));
  const definerStart = countDefiners(scans, names.length);
  const definerFiles = new Int32Array(definerStart[names.length] ?? 0);
  // Definitions first: a reference to a name no file defines adds no edge, so it is dropped here.
  const next = definerStart.slice(0, names.length);
  const lastDefiner = new Int32Array(names.length).fill(-1);
  const defs = new DefinitionList(files.length);
  const firstLine = new Int32Array(names.length);
  scans.forEach((scan, fileId) => indexDefinitions(definerFiles, fileId, scan, next, lastDefiner, firstLine, defs));
  const { file: defFile, offset: defOffset, name: defName, slot: defSlot } = defs.finish();
  const index: NameIndex = {
    files, fileIds, names, definerStart, definerFiles, refNames: [], refCounts: [], packs,
    defStart: defs.starts, defFile, defOffset, defName, defSlot,
  };
  const counts = new Int32Array(names.length);
  for (const scan of scans) countReferences(index, scan, counts);
  // Without any references (no query, no identifiers) let definitions stand in, so ranks still differ.
  if (index.refNames.every((list) => list.length === 0)) {
    files.forEach((_file, fileId) => {
      const unique = [...new Set(index.defName.subarray(index.defStart[fileId] ?? 0, index.defStart[fileId + 1] ?? 0))];
      index.refNames[fileId] = unique;
      index.refCounts[fileId] = unique.map(() => 1);
    });
  }
  return index;
}

/** Definition k of the index as a Tag object. */
export function definitionTag(index: NameIndex, k: number): Tag {
  const fileId = index.defFile[k] ?? 0;
  const packed = index.packs[fileId];
  const offset = index.defOffset[k] ?? 0;
  const data = packed?.data ?? new Int32Array(4);
  const kindKey = packed?.kinds[data[offset + 1] ?? 0] ?? '';
  return {
    path: index.files[fileId] ?? '',
    name: index.names[index.defName[k] ?? 0] ?? '',
    role: 'def',
    kind: kindKey.slice(kindKey.indexOf(':') + 1),
    line: data[offset + 2] ?? 0,
    endLine: data[offset + 3] ?? 0,
  };
}

/** Growable parallel arrays of definitions (file, tuple offset, name id), with each file's start. */
class DefinitionList {
  readonly starts: Int32Array;
  file: Int32Array = new Int32Array(1024);
  offset: Int32Array = new Int32Array(1024);
  name: Int32Array = new Int32Array(1024);
  slot: Int32Array = new Int32Array(1024);
  length = 0;

  constructor(fileCount: number) {
    this.starts = new Int32Array(fileCount + 1);
  }

  push(fileId: number, offset: number, nameId: number, slot: number): void {
    if (this.length === this.file.length) {
      this.file = grown(this.file);
      this.offset = grown(this.offset);
      this.name = grown(this.name);
      this.slot = grown(this.slot);
    }
    this.file[this.length] = fileId;
    this.offset[this.length] = offset;
    this.name[this.length] = nameId;
    this.slot[this.length] = slot;
    this.length++;
  }

  /** The arrays cut to length (the list is not used after). */
  finish(): { file: Int32Array; offset: Int32Array; name: Int32Array; slot: Int32Array } {
    const cut = (array: Int32Array): Int32Array => array.slice(0, this.length);
    return { file: cut(this.file), offset: cut(this.offset), name: cut(this.name), slot: cut(this.slot) };
  }
}

function grown(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Per name id, where its defining files start in one flat array (length: names + 1). */
function countDefiners(scans: readonly FileScan[], nameCount: number): Int32Array {
  const start = new Int32Array(nameCount + 1);
  const lastDefiner = new Int32Array(nameCount).fill(-1);
  scans.forEach(({ packed: { data }, isDef }, fileId) => {
    for (let i = 0; i < data.length; i += 4) {
      if (isDef[data[i + 1] ?? 0] !== true) continue;
      const nameId = data[i] ?? 0;
      if (lastDefiner[nameId] === fileId) continue;
      lastDefiner[nameId] = fileId;
      start[nameId + 1] = (start[nameId + 1] ?? 0) + 1;
    }
  });
  for (let id = 0; id < nameCount; id++) start[id + 1] = (start[id + 1] ?? 0) + (start[id] ?? 0);
  return start;
}

export function definerCount(index: NameIndex, nameId: number): number {
  return (index.definerStart[nameId + 1] ?? 0) - (index.definerStart[nameId] ?? 0);
}

export function definersOf(index: NameIndex, nameId: number): Int32Array {
  return index.definerFiles.subarray(index.definerStart[nameId] ?? 0, index.definerStart[nameId + 1] ?? 0);
}

/**
 * Records the file as a definer of its names, and its distinct definitions (name and line) in
 * `defs`. A name's first definition in the file is new by definition; its line is kept in
 * `firstLine`, so only a name defined again in the same file (overloads, `__init__` of each class)
 * is looked up in a set.
 */
function indexDefinitions(
  definerFiles: Int32Array, fileId: number, scan: FileScan, next: Int32Array, lastDefiner: Int32Array, firstLine: Int32Array, defs: DefinitionList,
): void {
  const { data } = scan.packed;
  defs.starts[fileId] = defs.length;
  let again: Set<number> | undefined;
  for (let i = 0; i < data.length; i += 4) {
    if (scan.isDef[data[i + 1] ?? 0] !== true) continue;
    const nameId = data[i] ?? 0;
    const line = data[i + 2] ?? 0;
    if (lastDefiner[nameId] !== fileId) {
      lastDefiner[nameId] = fileId;
      firstLine[nameId] = line;
      const slot = next[nameId] ?? 0;
      definerFiles[slot] = fileId;
      next[nameId] = slot + 1;
      defs.push(fileId, i, nameId, slot);
      continue;
    }
    if (firstLine[nameId] === line) continue;
    // (name, line) as one number: a string key here cost a sixth of the ranking on big trees.
    const identity = nameId * LINE_SPAN + line;
    again ??= new Set<number>();
    if (again.has(identity)) continue;
    again.add(identity);
    // The file took the name's latest slot when it first defined it.
    defs.push(fileId, i, nameId, (next[nameId] ?? 1) - 1);
  }
  defs.starts[fileId + 1] = defs.length;
}

/**
 * Counts the file's references per defined name id. Names keep the order of their first
 * reference, so sums of weights are added up in the same order as when every reference was a
 * tag object. `counts` is all zeros on entry and on return (shared by every file).
 */
function countReferences(index: NameIndex, scan: FileScan, counts: Int32Array): void {
  const { data } = scan.packed;
  const order: number[] = [];
  for (let i = 0; i < data.length; i += 4) {
    if (scan.isDef[data[i + 1] ?? 0] === true) continue;
    const nameId = data[i] ?? 0;
    const count = counts[nameId] ?? 0;
    if (count === 0) order.push(nameId);
    counts[nameId] = count + referenceCount(data, i);
  }
  const refNames: number[] = [];
  const refCounts: number[] = [];
  for (const nameId of order) {
    if (definerCount(index, nameId) > 0) {
      refNames.push(nameId);
      refCounts.push(counts[nameId] ?? 0);
    }
    counts[nameId] = 0;
  }
  index.refNames.push(refNames);
  index.refCounts.push(refCounts);
}

/** Ids of the defined names among `mentioned`: a scan by length first, so few names are hashed. */
export function mentionedNameIds(index: NameIndex, mentioned: ReadonlySet<string>): number[] {
  if (mentioned.size === 0) return [];
  const lengths = new Set([...mentioned].map((name) => name.length));
  const ids: number[] = [];
  for (let id = 0; id < index.names.length; id++) {
    const name = index.names[id] ?? '';
    if (lengths.has(name.length) && definerCount(index, id) > 0 && mentioned.has(name)) ids.push(id);
  }
  return ids;
}
