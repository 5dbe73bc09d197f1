// Packing a file's tags for the trip between threads (and the cache) loses nothing.
import { describe, expect, it } from 'vitest';
import { packTags, unpackTags } from '../../src/repomap/packed-tags.js';
import type { Tag } from '../../src/repomap/tag.js';

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
});
