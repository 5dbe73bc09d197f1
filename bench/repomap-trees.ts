// Trees for the repo-map benchmark: real packages fetched from the npm registry, and a generated
// large TypeScript/Python repository (deterministic: the same options give the same bytes).

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Downloads and unpacks `spec` (e.g. rxjs@7.8.2) under cacheDir once; returns the tree. */
export async function fetchNpmTree(cacheDir: string, spec: string): Promise<string> {
  const dir = path.join(cacheDir, 'npm', spec.replace(/[^\w.@-]/g, '_'));
  const tree = path.join(dir, 'package');
  if (existsSync(path.join(tree, 'package.json'))) return tree;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await run('npm', ['pack', spec, '--pack-destination', dir, '--silent'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  const tarball = (await readdir(dir)).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack ${spec} produced no tarball`);
  await run('tar', ['xzf', tarball], { cwd: dir });
  await rm(path.join(dir, tarball));
  return tree;
}

/** Makes the tree its own git work tree: the map lists files through git. */
export async function ensureGitRepo(tree: string): Promise<void> {
  if (existsSync(path.join(tree, '.git'))) return;
  await run('git', ['init', '-q'], { cwd: tree });
}

/** A real tree for the map bench: where it lives and what to call it in the table. */
export interface RealTree {
  readonly label: string;
  readonly path: string;
  /** Which of the targets applies: the large real tree's ratios or the small repository's time. */
  readonly role?: 'large' | 'small';
}

export const PYODIDE = 'pyodide@0.29.0';
/** An older pyodide, whose standard library (Python 3.11) brings the tree into the 25-30 MB. */
export const PYODIDE_OLD = 'pyodide@0.23.4';
export const PYRIGHT = 'pyright@1.1.414';
export const THREE = 'three@0.180.0';

/**
 * ~28 MB of real Python in ~6,100 files: the standard libraries shipped inside two pyodide releases
 * (their python_stdlib.zip, unpacked with `unzip`; a repository vendoring two Python versions) next
 * to the typeshed stubs shipped inside pyright.
 */
export async function realPythonTree(cacheDir: string): Promise<RealTree> {
  const tree = path.join(cacheDir, 'real-python-v2');
  const label = `python stdlibs (${PYODIDE}, ${PYODIDE_OLD}) + typeshed (${PYRIGHT})`;
  if (existsSync(path.join(tree, '.complete'))) return { label, path: tree, role: 'large' };
  const [pyodide, pyodideOld, pyright] = [
    await fetchNpmTree(cacheDir, PYODIDE), await fetchNpmTree(cacheDir, PYODIDE_OLD), await fetchNpmTree(cacheDir, PYRIGHT)];
  await rm(tree, { recursive: true, force: true });
  for (const [folder, release] of [['stdlib', pyodide], ['stdlib-3.11', pyodideOld]] as const) {
    await mkdir(path.join(tree, folder), { recursive: true });
    await run('unzip', ['-q', '-o', path.join(release, 'python_stdlib.zip'), '-d', path.join(tree, folder)], { maxBuffer: 64 * 1024 * 1024 });
  }
  await cp(path.join(pyright, 'dist', 'typeshed-fallback'), path.join(tree, 'typeshed'), { recursive: true });
  await writeFile(path.join(tree, '.complete'), '');
  return { label, path: tree, role: 'large' };
}

/** three.js's renderers (258 files, 2.4 MB of JavaScript): a repository of the size where fixed costs show. */
export async function threeRenderersTree(cacheDir: string): Promise<RealTree> {
  const tree = path.join(await fetchNpmTree(cacheDir, THREE), 'src', 'renderers');
  return { label: `${THREE} src/renderers`, path: tree, role: 'small' };
}

export const NODE_GYP = 'node-gyp@11.2.0';

/**
 * A small polyglot project: node-gyp with gyp inside it (Python, JavaScript, C++, C#, shell, a
 * TOML, Markdown docs, JSON; 108 files), where a cold map pays each language's start-up.
 */
export async function polyglotTree(cacheDir: string): Promise<RealTree> {
  const tree = await fetchNpmTree(cacheDir, NODE_GYP);
  return { label: `${NODE_GYP} (polyglot)`, path: tree, role: 'small' };
}

export interface GeneratedTreeOptions {
  readonly files: number;
  readonly megabytes: number;
}

const GENERATOR_VERSION = 1;
const VERBS = ['load', 'store', 'parse', 'render', 'compute', 'validate', 'merge', 'fetch', 'update', 'resolve'];
const NOUNS = ['user', 'order', 'invoice', 'session', 'config', 'report', 'token', 'record', 'account', 'event'];

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function functionName(file: number, index: number, python: boolean): string {
  const verb = VERBS[index % VERBS.length] ?? 'run';
  const noun = NOUNS[(file + index) % NOUNS.length] ?? 'item';
  return python ? `${verb}_${noun}_${file}_${index}` : `${verb}${noun[0]?.toUpperCase()}${noun.slice(1)}${file}x${index}`;
}

function moduleText(file: number, total: number, targetBytes: number, random: () => number): string {
  const python = file % 2 === 1;
  const lines: string[] = [python ? `"""Generated module ${file}."""` : `// Generated module ${file}.`];
  const other = (): [number, number] => [Math.floor(random() * total), Math.floor(random() * 40)];
  let size = 0;
  for (let cls = 0; size < targetBytes; cls++) {
    const className = `Component${file}N${cls}`;
    lines.push(python ? `class ${className}:` : `export class ${className} {`);
    for (let m = 0; m < 8; m++) {
      const own = functionName(file, cls * 8 + m, python);
      const calls = [other(), other(), other()].map(([f, i]) => functionName(f, i, f % 2 === 1));
      if (python) {
        lines.push(`    def ${own}(self, value, options=None):`, `        total = ${calls[0]}(value) + ${calls[1]}(value)`);
        lines.push(`        if options is not None:`, `            total += ${calls[2]}(options)`, `        return total`, '');
      } else {
        lines.push(`  ${own}(value: number, options?: number): number {`, `    let total = ${calls[0]}(value) + ${calls[1]}(value);`);
        lines.push(`    if (options !== undefined) total += ${calls[2]}(options);`, '    return total;', '  }', '');
      }
    }
    if (!python) lines.push('}', '');
    size = lines.reduce((sum, line) => sum + line.length + 1, 0);
  }
  return `${lines.join('\n')}\n`;
}

/** ~options.files modules of alternating TypeScript and Python, ~options.megabytes in total. */
export async function generateTree(cacheDir: string, options: GeneratedTreeOptions): Promise<string> {
  const tree = path.join(cacheDir, `generated-v${GENERATOR_VERSION}-${options.files}-${options.megabytes}mb`);
  const marker = path.join(tree, '.complete');
  if (existsSync(marker)) return tree;
  await rm(tree, { recursive: true, force: true });
  const random = seeded(42);
  const targetBytes = Math.floor((options.megabytes * 1024 * 1024) / options.files);
  for (let file = 0; file < options.files; file++) {
    const folder = path.join(tree, `pkg${Math.floor(file / 100)}`);
    await mkdir(folder, { recursive: true });
    const extension = file % 2 === 1 ? 'py' : 'ts';
    await writeFile(path.join(folder, `module_${file}.${extension}`), moduleText(file, options.files, targetBytes, random));
  }
  await writeFile(marker, '');
  return tree;
}
