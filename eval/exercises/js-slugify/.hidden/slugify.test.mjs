import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify } from './slugify.mjs';

test('lower case words joined by dashes', () => {
  assert.equal(slugify('Hello World'), 'hello-world');
});
test('punctuation and extra spaces go away', () => {
  assert.equal(slugify('  What?! A -- great   day... '), 'what-a-great-day');
});
test('accents are removed', () => {
  assert.equal(slugify('Crème Brûlée à la carte'), 'creme-brulee-a-la-carte');
});
test('digits stay', () => {
  assert.equal(slugify('Top 10 of 2024'), 'top-10-of-2024');
});
test('nothing left', () => {
  assert.equal(slugify('!!!'), '');
});
