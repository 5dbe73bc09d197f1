import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCamel, toSnake } from './case.mjs';

test('snake to camel', () => {
  assert.equal(toCamel('user_id'), 'userId');
  assert.equal(toCamel('parse_http_response'), 'parseHttpResponse');
});
test('kebab and spaces to camel', () => {
  assert.equal(toCamel('background-color'), 'backgroundColor');
  assert.equal(toCamel('Hello big World'), 'helloBigWorld');
});
test('camel to snake', () => {
  assert.equal(toSnake('userId'), 'user_id');
  assert.equal(toSnake('parseHTTPResponse'), 'parse_http_response');
  assert.equal(toSnake('already_snake'), 'already_snake');
});
test('numbers', () => {
  assert.equal(toSnake('version2Update'), 'version2_update');
  assert.equal(toCamel('version_2_update'), 'version2Update');
});
