import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from './machine.mjs';

test('arithmetic', () => {
  assert.deepEqual(run('push 2\npush 3\nadd\npush 4\nmul'), [20]);
});
test('dup, swap, drop', () => {
  assert.deepEqual(run('push 1\npush 2\nswap\ndup\ndrop'), [2, 1]);
});
test('sub and comments', () => {
  assert.deepEqual(run('# comment\npush 10\n\npush 4\nsub'), [6]);
});
test('errors name the line', () => {
  assert.throws(() => run('push 1\nadd'), /line 2/);
  assert.throws(() => run('push x'), /line 1/);
  assert.throws(() => run('jump 3'), /line 1/);
});
