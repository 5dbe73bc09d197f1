import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compare } from './semver.mjs';

test('major minor patch', () => {
  assert.equal(compare('1.2.3', '1.2.3'), 0);
  assert.equal(compare('1.2.3', '1.10.0'), -1);
  assert.equal(compare('2.0.0', '1.99.99'), 1);
});
test('prerelease sorts before release', () => {
  assert.equal(compare('1.0.0-alpha', '1.0.0'), -1);
  assert.equal(compare('1.0.0', '1.0.0-rc.1'), 1);
});
test('prerelease identifiers', () => {
  assert.equal(compare('1.0.0-alpha', '1.0.0-alpha.1'), -1);
  assert.equal(compare('1.0.0-alpha.2', '1.0.0-alpha.10'), -1);
  assert.equal(compare('1.0.0-alpha.beta', '1.0.0-alpha.1'), 1);
  assert.equal(compare('1.0.0-beta', '1.0.0-alpha'), 1);
});
test('build metadata is ignored', () => {
  assert.equal(compare('1.0.0+build.5', '1.0.0+build.9'), 0);
});
test('invalid', () => {
  assert.throws(() => compare('1.2', '1.2.0'), TypeError);
});
