export function fizzbuzz(limit, rules) {
  throw new Error('not implemented');
}
