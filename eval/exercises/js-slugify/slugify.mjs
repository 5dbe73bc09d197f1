export function slugify(title) {
  throw new Error('not implemented');
}
