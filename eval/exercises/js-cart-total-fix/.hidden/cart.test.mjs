import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cartTotal, lineTotal } from './cart.mjs';

const items = [
  { price: 1999, quantity: 2 },
  { price: 500, quantity: 1 },
];
test('plain total', () => {
  assert.equal(cartTotal(items), 4498);
});
test('percent coupon takes a percentage and rounds to whole cents', () => {
  assert.equal(cartTotal(items, { type: 'percent', value: 10 }), 4048);
});
test('fixed coupon never goes below zero', () => {
  assert.equal(cartTotal(items, { type: 'fixed', value: 5000 }), 0);
});
test('bulk discount: 5% off lines of 10 or more', () => {
  assert.equal(lineTotal({ price: 100, quantity: 10 }), 950);
});
test('unknown coupon type throws', () => {
  assert.throws(() => cartTotal(items, { type: 'bogus', value: 1 }), /coupon/);
});
