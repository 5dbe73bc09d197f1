export function compare(a, b) {
  throw new Error('not implemented');
}
