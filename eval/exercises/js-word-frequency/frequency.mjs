export function topWords(text, count) {
  throw new Error('not implemented');
}
