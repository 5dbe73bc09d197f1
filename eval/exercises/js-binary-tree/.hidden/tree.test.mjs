import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SearchTree } from './tree.mjs';

test('in-order is sorted', () => {
  const t = new SearchTree();
  for (const v of [5, 3, 8, 1, 4, 9]) t.insert(v);
  assert.deepEqual(t.inOrder(), [1, 3, 4, 5, 8, 9]);
});
test('duplicates are ignored', () => {
  const t = new SearchTree();
  [2, 2, 1].forEach((v) => t.insert(v));
  assert.deepEqual(t.inOrder(), [1, 2]);
  assert.equal(t.size, 2);
});
test('has', () => {
  const t = new SearchTree();
  [10, 5, 15].forEach((v) => t.insert(v));
  assert.equal(t.has(5), true);
  assert.equal(t.has(7), false);
});
test('height', () => {
  const t = new SearchTree();
  assert.equal(t.height(), 0);
  [2, 1, 3, 4].forEach((v) => t.insert(v));
  assert.equal(t.height(), 3);
});
test('insert returns the tree for chaining', () => {
  assert.deepEqual(new SearchTree().insert(2).insert(1).inOrder(), [1, 2]);
});
