export function deepEqual(a, b) {
  return a === b;
}
