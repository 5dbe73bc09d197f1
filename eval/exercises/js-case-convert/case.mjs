export function toCamel(text) {
  throw new Error('not implemented');
}

export function toSnake(text) {
  throw new Error('not implemented');
}
