export function chunk(items, size) {
  throw new Error('not implemented');
}
