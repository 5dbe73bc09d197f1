import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topWords } from './frequency.mjs';

test('most common first', () => {
  assert.deepEqual(topWords('b a b c b a', 2), [['b', 3], ['a', 2]]);
});
test('ties alphabetical', () => {
  assert.deepEqual(topWords('z y x y z x', 3), [['x', 2], ['y', 2], ['z', 2]]);
});
test('case and punctuation', () => {
  assert.deepEqual(topWords('The cat. THE dog! the end?', 1), [['the', 3]]);
});
test('stop words are skipped when asked', () => {
  assert.deepEqual(topWords('the cat and the hat and the bat', 2, { stopWords: ['the', 'and'] }), [['bat', 1], ['cat', 1]]);
});
test('count larger than words', () => {
  assert.deepEqual(topWords('one', 5), [['one', 1]]);
});
