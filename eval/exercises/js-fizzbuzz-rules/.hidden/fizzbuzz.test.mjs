import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fizzbuzz } from './fizzbuzz.mjs';

test('classic', () => {
  assert.deepEqual(fizzbuzz(15).slice(-6), ['Buzz', '11', 'Fizz', '13', '14', 'FizzBuzz']);
});
test('custom rules in order', () => {
  const rules = [[2, 'Even'], [7, 'Seven']];
  assert.deepEqual(fizzbuzz(14, rules).slice(12), ['13', 'EvenSeven']);
  assert.deepEqual(fizzbuzz(3, rules), ['1', 'Even', '3']);
});
test('zero and empty rules', () => {
  assert.deepEqual(fizzbuzz(0), []);
  assert.deepEqual(fizzbuzz(2, []), ['1', '2']);
});
test('bad limit', () => {
  assert.throws(() => fizzbuzz(-1), RangeError);
});
