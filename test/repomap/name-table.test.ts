// The shared table of names: ids, moving per-file tables onto it, compacting it.
import { describe, expect, it } from 'vitest';
import { compactNames, NameTable, sharesOneTable } from '../../src/repomap/name-table.js';
import { packedWithNameBytes, packTags, unpackTags } from '../../src/repomap/packed-tags.js';
import type { Tag } from '../../src/repomap/tag.js';

function tagsOf(path: string, names: string[]): Tag[] {
  return names.map((name, line) => ({ path, name, role: line % 2 ? 'ref' : 'def', kind: 'function', line, endLine: line % 2 ? line : line + 1 }));
}

describe('name table', () => {
  it('gives each name one id, also for names read from disk before the first lookup', () => {
    const table = new NameTable(['a', 'b']);
    table.append(['c', 'a']);
    expect([table.idOf('a'), table.idOf('c'), table.idOf('d'), table.idOf('d')]).toEqual([0, 2, 4, 4]);
    table.append(['e']);
    expect(table.idOf('e')).toBe(5);
    expect(table.names).toEqual(['a', 'b', 'c', 'a', 'd', 'e']);
  });

  it('moves per-file tags onto the table without changing them, and leaves adopted ones alone', () => {
    const table = new NameTable();
    const a = table.adopt(packTags(tagsOf('a.ts', ['x', 'y', 'x'])));
    const b = table.adopt(packTags(tagsOf('b.ts', ['z', 'y'])));
    expect(table.names).toEqual(['x', 'y', 'z']);
    expect(a.names).toBe(table.names);
    expect(Array.from(b.data.filter((_, i) => i % 4 === 0))).toEqual([2, 1]);
    expect(unpackTags('b.ts', b)).toEqual(tagsOf('b.ts', ['z', 'y']));
    expect(table.adopt(a)).toBe(a);
    expect(sharesOneTable([a, b])).toBe(true);
    expect(sharesOneTable([a, packTags(tagsOf('c.ts', ['x']))])).toBe(false);
  });

  it('gives a small file in a big table the ids an index would give, without building one', () => {
    const big = Array.from({ length: 2000 }, (_, i) => `name_${i}`);
    big.push('name_7');
    const scanned = new NameTable([...big]);
    const indexed = new NameTable([...big]);
    indexed.idOf('warm the index');
    const file = packTags(tagsOf('a.py', ['name_7', 'brand_new', 'name_1999', 'brand_new', 'other_new']));
    const a = scanned.adopt(file);
    const b = indexed.adopt(file);
    expect(unpackTags('a.py', a)).toEqual(unpackTags('a.py', file));
    const idsOf = (packed: typeof a): number[] => Array.from(packed.data.filter((_, i) => i % 4 === 0));
    expect(idsOf(a).map((id) => a.names[id])).toEqual(idsOf(b).map((id) => b.names[id]));
    expect(idsOf(a).slice(0, 1)).toEqual([7]);
    // Later lookups agree with what the scan added.
    expect(scanned.idOf('brand_new')).toBe(idsOf(a)[1]);
    expect(scanned.idOf('name_7')).toBe(7);
  });

  it('finds a small file\'s names given as bytes in a big table by a scan, with the ids the index gives', () => {
    const big = Array.from({ length: 2000 }, (_, i) => `name_${i}`);
    big.push('name_7');
    const scanned = new NameTable([...big]);
    const indexed = new NameTable([...big]);
    indexed.idOf('warm the index');
    const strings = packTags(tagsOf('a.py', ['name_7', 'brand_new', 'naïve', 'name_1999', 'brand_new']));
    const bytes = (): ReturnType<typeof packTags> => packedWithNameBytes({ bytes: Buffer.from(strings.names.join('\0')), count: strings.names.length }, strings.kinds, strings.data);
    const a = scanned.adopt(bytes());
    const b = indexed.adopt(bytes());
    // No index was built for it: the scan counted, and the table's names are not yet interned.
    expect((scanned as unknown as { index: unknown }).index).toBeUndefined();
    const idsOf = (packed: typeof a): number[] => Array.from(packed.data.filter((_, i) => i % 4 === 0));
    expect(idsOf(a).map((id) => a.names[id])).toEqual(idsOf(b).map((id) => b.names[id]));
    expect(unpackTags('a.py', a)).toEqual(unpackTags('a.py', strings));
    expect(idsOf(a)[0]).toBe(7);
    expect(scanned.names.slice(big.length)).toEqual(['brand_new', 'naïve']);
    // Later lookups agree with what the scan added.
    expect([scanned.idOf('brand_new'), scanned.idOf('naïve'), scanned.idOf('name_7')]).toEqual([big.length, big.length + 1, 7]);
  });

  it('interns names given as bytes to the ids their strings get, new names included', () => {
    const names = ['x', 'é', 'y', 'naïve', 'x'];
    const table = new NameTable(['y', 'q', 'y']);
    const twin = new NameTable(['y', 'q', 'y']);
    const strings = packTags(tagsOf('a.py', names));
    const bytes = packedWithNameBytes({ bytes: Buffer.from(strings.names.join('\0')), count: strings.names.length }, strings.kinds, strings.data);
    const a = table.adopt(bytes);
    const b = twin.adopt(strings);
    expect(table.names).toEqual(twin.names);
    expect(a.data).toEqual(b.data);
    expect(unpackTags('a.py', a)).toEqual(tagsOf('a.py', names));
    // Later lookups by string agree with what the bytes added; the first of a doubled name wins.
    expect([table.idOf('naïve'), table.idOf('y'), table.idOf('new')]).toEqual([twin.idOf('naïve'), 0, 6]);
  });

  it('grows its index past many names and keeps every id', () => {
    const table = new NameTable();
    const many = Array.from({ length: 50_000 }, (_, i) => `n${i}_${'x'.repeat(i % 40)}`);
    expect(many.map((name) => table.idOf(name))).toEqual(many.map((_, i) => i));
    expect(many.map((name) => table.idOf(name))).toEqual(many.map((_, i) => i));
  });

  it('compacts to the names in use, from one table or from many', () => {
    const table = new NameTable(['unused', 'q', 'p']);
    const packs = [packTags(tagsOf('a.ts', ['p', 'q'])), packTags(tagsOf('b.ts', ['q', 'r']))];
    const shared = packs.map((packed) => table.adopt(packed));
    for (const input of [packs, shared]) {
      const compact = compactNames(input);
      expect(compact.table.names).toEqual(['p', 'q', 'r']);
      expect(compact.packs.map((packed) => unpackTags('f', packed))).toEqual(input.map((packed) => unpackTags('f', packed)));
      expect(compact.packs[1]?.names).toBe(compact.table.names);
    }
  });
});
