import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRanges } from './ranges.mjs';

test('collapses runs of three or more', () => {
  assert.equal(formatRanges([1, 2, 3, 5, 7, 8, 9, 10]), '1-3,5,7-10');
});
test('pairs stay separate', () => {
  assert.equal(formatRanges([4, 5]), '4,5');
});
test('unsorted with duplicates', () => {
  assert.equal(formatRanges([3, 1, 2, 2, 9]), '1-3,9');
});
test('negatives', () => {
  assert.equal(formatRanges([-3, -2, -1, 0]), '-3-0');
});
test('empty', () => {
  assert.equal(formatRanges([]), '');
});
