export function render(items, sep = "") {
  const out = [];
  for (const item of items) {
    out.push(`<li>${item}</li>`);
  }
  return out.join(sep);
}
