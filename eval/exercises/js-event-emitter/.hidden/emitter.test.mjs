import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from './emitter.mjs';

test('on and emit', () => {
  const e = new Emitter();
  const seen = [];
  e.on('x', (a, b) => seen.push([a, b]));
  e.emit('x', 1, 2);
  e.emit('y', 3);
  assert.deepEqual(seen, [[1, 2]]);
});
test('off removes one listener', () => {
  const e = new Emitter();
  const seen = [];
  const f = () => seen.push('f');
  e.on('x', f);
  e.on('x', () => seen.push('g'));
  e.off('x', f);
  e.emit('x');
  assert.deepEqual(seen, ['g']);
});
test('once', () => {
  const e = new Emitter();
  let n = 0;
  e.once('x', () => n++);
  e.emit('x');
  e.emit('x');
  assert.equal(n, 1);
});
test('emit returns whether anyone listened', () => {
  const e = new Emitter();
  assert.equal(e.emit('x'), false);
  e.on('x', () => {});
  assert.equal(e.emit('x'), true);
});
test('on returns an unsubscribe function', () => {
  const e = new Emitter();
  let n = 0;
  const stop = e.on('x', () => n++);
  stop();
  e.emit('x');
  assert.equal(n, 0);
});
