// One file's tags as a few strings and one Int32Array, the form they cross between threads in.
import type { Tag } from './tag.js';

export interface PackedTags {
  /** Distinct names of the file, in first-use order. */
  readonly names: readonly string[];
  /** Distinct `role:kind` pairs of the file. */
  readonly kinds: readonly string[];
  /** Four numbers per tag: name index, kind index, line, endLine. */
  readonly data: Int32Array;
}

export function packTags(tags: readonly Tag[]): PackedTags {
  const names: string[] = [];
  const kinds: string[] = [];
  const nameIndex = new Map<string, number>();
  const kindIndex = new Map<string, number>();
  const data = new Int32Array(tags.length * 4);
  tags.forEach((tag, i) => {
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
    data[i * 4] = name;
    data[i * 4 + 1] = kind;
    data[i * 4 + 2] = tag.line;
    data[i * 4 + 3] = tag.endLine;
  });
  return { names, kinds, data };
}

export function unpackTags(path: string, packed: PackedTags): Tag[] {
  const kinds = packed.kinds.map((key) => {
    const colon = key.indexOf(':');
    return { role: key.slice(0, colon) as Tag['role'], kind: key.slice(colon + 1) };
  });
  const tags: Tag[] = [];
  const { data, names } = packed;
  for (let i = 0; i < data.length; i += 4) {
    const kind = kinds[data[i + 1] ?? 0] ?? { role: 'ref', kind: 'identifier' };
    tags.push({ path, name: names[data[i] ?? 0] ?? '', role: kind.role, kind: kind.kind, line: data[i + 2] ?? 0, endLine: data[i + 3] ?? 0 });
  }
  return tags;
}
