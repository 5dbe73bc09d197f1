import { test } from 'node:test';
import assert from 'node:assert/strict';
import { score } from './bowling.mjs';

test('gutter game', () => {
  assert.equal(score(Array(20).fill(0)), 0);
});
test('all ones', () => {
  assert.equal(score(Array(20).fill(1)), 20);
});
test('spare', () => {
  assert.equal(score([5, 5, 3, ...Array(17).fill(0)]), 16);
});
test('strike', () => {
  assert.equal(score([10, 3, 4, ...Array(16).fill(0)]), 24);
});
test('perfect game', () => {
  assert.equal(score(Array(12).fill(10)), 300);
});
test('spare in the last frame gets one bonus roll', () => {
  assert.equal(score([...Array(18).fill(0), 7, 3, 5]), 15);
});
test('incomplete game throws', () => {
  assert.throws(() => score([10, 10]));
  assert.throws(() => score(Array(19).fill(0)));
});
