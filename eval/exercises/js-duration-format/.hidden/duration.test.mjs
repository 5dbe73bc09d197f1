import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration } from './duration.mjs';

test('zero', () => {
  assert.equal(formatDuration(0), 'now');
});
test('single units', () => {
  assert.equal(formatDuration(1), '1 second');
  assert.equal(formatDuration(120), '2 minutes');
});
test('list with and', () => {
  assert.equal(formatDuration(62), '1 minute and 2 seconds');
  assert.equal(formatDuration(3662), '1 hour, 1 minute and 2 seconds');
});
test('days and years', () => {
  assert.equal(formatDuration(86400 * 366 + 1), '1 year, 1 day and 1 second');
});
test('negative', () => {
  assert.throws(() => formatDuration(-1), RangeError);
});
