export function run(program) {
  throw new Error('not implemented');
}
