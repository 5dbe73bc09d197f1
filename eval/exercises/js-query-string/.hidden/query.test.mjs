import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, stringify } from './query.mjs';

test('parse', () => {
  assert.deepEqual(parse('?a=1&b=two'), { a: '1', b: 'two' });
  assert.deepEqual(parse('a=1&a=2&b'), { a: ['1', '2'], b: '' });
});
test('decoding', () => {
  assert.deepEqual(parse('q=hello%20world&x=a+b'), { q: 'hello world', x: 'a b' });
});
test('empty', () => {
  assert.deepEqual(parse(''), {});
  assert.deepEqual(parse('?'), {});
});
test('stringify', () => {
  assert.equal(stringify({ b: 'x y', a: ['1', '2'] }), 'a=1&a=2&b=x%20y');
  assert.equal(stringify({}), '');
});
test('round trip', () => {
  const params = { name: 'Zoë & co', tags: ['a', 'b=c'] };
  assert.deepEqual(parse(stringify(params)), params);
});
