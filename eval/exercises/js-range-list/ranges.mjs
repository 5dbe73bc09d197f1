export function formatRanges(numbers) {
  throw new Error('not implemented');
}
