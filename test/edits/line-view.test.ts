import { describe, expect, it } from 'vitest';
import { LineView } from '../../src/edits/match-lines.js';

describe('LineView', () => {
  it('finds positions by key and keeps them in step with splices', () => {
    const view = new LineView(['a', '  b', 'c', 'b', 'a']);
    expect(view.positions('trim', 'b')).toEqual([1, 3]);
    expect(view.positions('exact', 'b')).toEqual([3]);
    view.splice(0, 2, ['x', 'y', 'z', ' b']);
    expect(view.lines).toEqual(['x', 'y', 'z', ' b', 'c', 'b', 'a']);
    expect(view.positions('trim', 'b')).toEqual([3, 5]);
    expect(view.positions('exact', 'a')).toEqual([6]);
    expect(view.keys('trim')).toEqual(['x', 'y', 'z', 'b', 'c', 'b', 'a']);
    view.splice(3, 3, []);
    expect(view.positions('trim', 'b')).toEqual([]);
    expect(view.positions('trim', 'a')).toEqual([3]);
  });

  it('builds an index for a new key kind after splices', () => {
    const view = new LineView(['x = \u201Cq\u201D', 'y']);
    expect(view.positions('exact', 'y')).toEqual([1]);
    view.splice(0, 0, ['x = "q"']);
    expect(view.positions('foldTrim', 'x = "q"')).toEqual([0, 1]);
    expect(view.positions('exact', 'y')).toEqual([2]);
  });

  it('keeps per-line data in step and estimates key counts from the index', () => {
    const view = new LineView(['a', 'a', 'b']);
    expect(view.perLine('len', (l) => l.length + 1)).toEqual([2, 2, 2]);
    expect(view.estimate('exact', 'a')).toBe(2);
    expect(view.estimate('exact', 'zz')).toBe(0);
    view.splice(1, 1, ['ccc', 'dd']);
    expect(view.perLine('len', () => 0)).toEqual([2, 4, 3, 2]);
  });

  it('does not change the array it was built from', () => {
    const lines = ['a', 'b'];
    new LineView(lines).splice(0, 1, ['z']);
    expect(lines).toEqual(['a', 'b']);
  });

  it('splices in very large replacements', () => {
    const view = new LineView(['head', 'tail']);
    const big = Array.from({ length: 150_000 }, (_, i) => `l${i}`);
    view.splice(1, 0, big);
    expect(view.lines.length).toBe(150_002);
    expect(view.positions('exact', 'tail')).toEqual([150_001]);
  });
});
