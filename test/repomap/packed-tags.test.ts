// Packing a file's tags for the trip between threads (and the cache): definitions as they are, references counted per name and kind.
import { describe, expect, it } from 'vitest';
import { definitionsOf, isWellFormed, packTags, referenceCount, tagCount, toPacked, unpackTags } from '../../src/repomap/packed-tags.js';
import type { Tag } from '../../src/repomap/tag.js';
import { fromWire, toWire } from '../../src/repomap/wire-outcome.js';

describe('packed tags', () => {
  it('round-trips tags, sharing repeated names and kinds', () => {
    const tags: Tag[] = [
      { path: 'a.ts', name: 'Store', role: 'def', kind: 'class', line: 0, endLine: 9 },
      { path: 'a.ts', name: 'save', role: 'def', kind: 'method', line: 2, endLine: 4 },
      { path: 'a.ts', name: 'Store', role: 'ref', kind: 'type', line: 3, endLine: 3 },
      { path: 'a.ts', name: 'save', role: 'ref', kind: 'call', line: 7, endLine: 7 },
      { path: 'a.ts', name: 'x:y', role: 'ref', kind: 'call', line: 8, endLine: 8 },
    ];
    const packed = packTags(tags);
    expect(packed.names).toEqual(['Store', 'save', 'x:y']);
    expect(packed.kinds).toEqual(['def:class', 'def:method', 'ref:type', 'ref:call']);
    expect(packed.data).toHaveLength(20);
    expect(unpackTags('a.ts', packed)).toEqual(tags);
    expect(unpackTags('a.ts', packTags([]))).toEqual([]);
  });

  it('gives the definitions alone, the count and the packed form of either representation', () => {
    const tags: Tag[] = [
      { path: 'b.py', name: 'run', role: 'ref', kind: 'call', line: 1, endLine: 1 },
      { path: 'b.py', name: 'Job', role: 'def', kind: 'class', line: 3, endLine: 8 },
      { path: 'b.py', name: 'run', role: 'def', kind: 'method', line: 4, endLine: 6 },
    ];
    const packed = packTags(tags);
    const defs = tags.filter((tag) => tag.role === 'def');
    expect(definitionsOf('b.py', packed)).toEqual(defs);
    expect(definitionsOf('b.py', tags)).toEqual(defs);
    expect([tagCount(packed), tagCount(tags), tagCount([])]).toEqual([3, 3, 0]);
    expect(toPacked(packed)).toBe(packed);
    expect(toPacked(tags)).toEqual(packed);
  });

  it('accepts only tables whose numbers point at existing names and def/ref kinds', () => {
    const packed = packTags([{ path: 'c.ts', name: 'f', role: 'def', kind: 'function', line: 0, endLine: 2 }]);
    expect(isWellFormed(packed)).toBe(true);
    expect(isWellFormed({ ...packed, data: Int32Array.from([1, 0, 0, 2]) })).toBe(false);
    expect(isWellFormed({ ...packed, data: Int32Array.from([0, 1, 0, 2]) })).toBe(false);
    expect(isWellFormed({ ...packed, data: Int32Array.from([0, 0, 0]) })).toBe(false);
    expect(isWellFormed({ ...packed, kinds: ['fn:function'] })).toBe(false);
    expect(isWellFormed({ ...packed, kinds: ['def:'] })).toBe(false);
  });
});

describe('packed references', () => {
  it('keeps one tuple per referenced name and kind, with the count, and ranks by the count', () => {
    const ref = (name: string, line: number, kind = 'call'): Tag => ({ path: 'a.py', name, role: 'ref', kind, line, endLine: line });
    const tags: Tag[] = [{ path: 'a.py', name: 'f', role: 'def', kind: 'function', line: 0, endLine: 3 }, ref('g', 1), ref('g', 2), ref('g', 5, 'type'), ref('h', 2), ref('g', 7)];
    const packed = packTags(tags);
    expect(tagCount(packed)).toBe(4);
    expect(unpackTags('a.py', packed)).toEqual([tags[0], ref('g', 1), ref('g', 5, 'type'), ref('h', 2)]);
    expect(referenceCount(packed.data, 4)).toBe(3);
    expect(isWellFormed(packed)).toBe(true);
  });
});

describe('outcomes between threads', () => {
  it('carry the names as one string and come back equal', () => {
    const packed = packTags([{ path: 'a.py', name: 'f', role: 'def', kind: 'function', line: 0, endLine: 3 }, { path: 'a.py', name: 'g', role: 'ref', kind: 'call', line: 1, endLine: 1 }]);
    const ok = { path: 'a.py', ok: true as const, hash: 'h', size: 12, packed };
    const wire = toWire(ok);
    expect(wire).toMatchObject({ names: 'f\ng' });
    expect(fromWire(wire)).toEqual(ok);
    const empty = { path: 'e.py', ok: true as const, hash: 'h', size: 0, packed: packTags([]) };
    expect(fromWire(toWire(empty))).toEqual(empty);
    const failed = { path: 'x.py', ok: false as const, error: 'boom' };
    expect(fromWire(toWire(failed))).toEqual(failed);
  });
});
