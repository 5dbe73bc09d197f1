import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepEqual } from './deep-equal.mjs';

test('primitives', () => {
  assert.equal(deepEqual(1, 1), true);
  assert.equal(deepEqual('a', 'b'), false);
  assert.equal(deepEqual(NaN, NaN), true);
  assert.equal(deepEqual(0, '0'), false);
});
test('arrays and objects', () => {
  assert.equal(deepEqual([1, { a: [2] }], [1, { a: [2] }]), true);
  assert.equal(deepEqual({ a: 1, b: 2 }, { b: 2, a: 1 }), true);
  assert.equal(deepEqual({ a: 1 }, { a: 1, b: undefined }), false);
  assert.equal(deepEqual([1, 2], { 0: 1, 1: 2 }), false);
});
test('dates', () => {
  assert.equal(deepEqual(new Date(5), new Date(5)), true);
  assert.equal(deepEqual(new Date(5), new Date(6)), false);
});
test('null', () => {
  assert.equal(deepEqual(null, {}), false);
  assert.equal(deepEqual(null, null), true);
});
