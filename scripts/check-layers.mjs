// Checks the folder layering of DESIGN.md (imports point down the list only), that every folder of
// src/ has a place in that list, and that no module import cycle exists. Exits 1 listing every violation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Highest first: a folder may import the folders after it. Nothing imports cli/; only cli/ imports eval/.
const LAYERS = ['cli', 'eval', 'telemetry', 'config', 'session', 'round', 'coders', 'edits', 'model', 'repomap', 'git', 'checks', 'watch', 'context', 'platform'];
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : full.endsWith('.ts') ? [full] : [];
  });
}

const layerOf = (file) => relative(src, file).split('/')[0];
const files = walk(src);
const imports = new Map();
const problems = [];
for (const name of readdirSync(src)) {
  const isFolder = statSync(join(src, name)).isDirectory();
  if (isFolder && !LAYERS.includes(name)) problems.push(`src/${name}/ is not in LAYERS (scripts/check-layers.mjs): give it a place in the list`);
  if (!isFolder && name.endsWith('.ts')) problems.push(`src/${name} lies outside every folder: move it into one of ${LAYERS.join(', ')}`);
}
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) =>
    resolve(dirname(file), m[1]).replace(/\.js$/, '.ts'),
  );
  imports.set(file, targets.filter((t) => t.startsWith(src)));
  const from = layerOf(file);
  for (const target of imports.get(file)) {
    const to = layerOf(target);
    if (from === to || !LAYERS.includes(from) || !LAYERS.includes(to)) continue; // unknown folders are reported above
    if (to === 'cli' || LAYERS.indexOf(to) < LAYERS.indexOf(from)) {
      problems.push(`${relative(root, file)} imports ${relative(root, target)}: ${from}/ may not import ${to}/`);
    }
  }
}

// Side effects come through platform's ports (DESIGN.md): no module outside src/platform/ and the
// composition root (src/cli/) imports the file system or starts processes itself.
const IO_MODULES = new Set(['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'child_process', 'node:child_process']);
const IO_ALLOWED = ['platform/', 'cli/'];
for (const file of files) {
  const rel = relative(src, file).split('\\').join('/');
  if (IO_ALLOWED.some((folder) => rel.startsWith(folder))) continue;
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)) {
    if (IO_MODULES.has(m[1])) problems.push(`${relative(root, file)} imports ${m[1]}: only src/platform/ (and the composition root, src/cli/) may; use a port from src/platform/`);
  }
}

const state = new Map();
const stack = [];
function visit(file) {
  state.set(file, 'open');
  stack.push(file);
  for (const next of imports.get(file) ?? []) {
    if (state.get(next) === 'open') {
      const cycle = stack.slice(stack.indexOf(next)).concat(next).map((f) => relative(root, f));
      problems.push(`import cycle: ${cycle.join(' -> ')}`);
    } else if (!state.has(next)) visit(next);
  }
  stack.pop();
  state.set(file, 'done');
}
for (const file of files) if (!state.has(file)) visit(file);

// One error base: every error class (one extending Error or another …Error class) extends TandemError of
// src/platform/errors.ts, directly or through another error class of src/, so `instanceof TandemError`
// tells a typed failure from a bug.
const ERROR_BASE = 'TandemError';
const errorClasses = new Map();
for (const file of files) {
  for (const m of readFileSync(file, 'utf8').matchAll(/^(?:export\s+)?(?:abstract\s+)?class\s+(\w+)(?:<[^>]*>)?\s+extends\s+([\w.]+)/gm)) {
    if (m[2] === 'Error' || m[2].endsWith('Error')) errorClasses.set(m[1], { base: m[2], file });
  }
}
for (const [name, { base, file }] of errorClasses) {
  if (name === ERROR_BASE) continue;
  const seen = new Set([name]);
  let parent = base;
  while (parent !== ERROR_BASE && errorClasses.has(parent) && !seen.has(parent)) {
    seen.add(parent);
    parent = errorClasses.get(parent).base;
  }
  if (parent !== ERROR_BASE) problems.push(`${relative(root, file)}: class ${name} extends ${base}, not ${ERROR_BASE} (src/platform/errors.ts): every error class has the one base`);
}

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`layers ok: ${files.length} modules, no upward imports, no cycles\n`);
