export function formatDuration(seconds) {
  throw new Error('not implemented');
}
