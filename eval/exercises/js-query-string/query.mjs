export function parse(query) {
  throw new Error('not implemented');
}

export function stringify(params) {
  throw new Error('not implemented');
}
