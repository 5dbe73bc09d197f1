// The exercise suite on disk: eval/exercises/<name>/ with instructions.md, exercise.json, the
// starting files and the hidden tests in .hidden/ (copied in only when testing).
import { join, sep } from 'node:path';
import { nodeFileSystem as fs } from '../platform/file-system.js';
import { EvalError } from './errors.js';
import { posixRelative } from '../platform/repo-path.js';

export interface Exercise {
  readonly name: string;
  readonly dir: string;
  readonly language: string;
  /** The files the model gets in the chat (repo-relative). */
  readonly files: string[];
  /** Shell command that runs the hidden tests; exit 0 means solved. */
  readonly test: string;
  readonly instructions: string;
}

/** Files of an exercise folder that are not part of the starting repository. */
const META = new Set(['exercise.json', 'instructions.md', '.hidden']);
export const HIDDEN_DIR = '.hidden';

/** Name contains the filter, or matches it as a regular expression. */
export function matchesFilter(name: string, filter: string | null): boolean {
  if (filter === null || filter === '') return true;
  if (name.includes(filter)) return true;
  try {
    return new RegExp(filter).test(name);
  } catch {
    return false;
  }
}

export async function loadExercises(dir: string, filter: string | null): Promise<Exercise[]> {
  let names: string[];
  try {
    const entries = await fs.readdirEntries(dir);
    names = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
  } catch {
    throw new EvalError('no_exercises', `cannot read the exercise folder ${dir}`);
  }
  const chosen = names.filter((n) => matchesFilter(n, filter)).sort();
  if (chosen.length === 0) throw new EvalError('no_exercises', `no exercise in ${dir} matches ${filter ?? '(all)'}`);
  return Promise.all(chosen.map((name) => loadExercise(join(dir, name))));
}

async function loadExercise(dir: string): Promise<Exercise> {
  const name = dir.split(sep).pop() ?? dir;
  let meta: { language?: unknown; files?: unknown; test?: unknown };
  let instructions: string;
  try {
    meta = JSON.parse((await fs.readFile(join(dir, 'exercise.json'))).toString('utf8')) as typeof meta;
    instructions = (await fs.readFile(join(dir, 'instructions.md'))).toString('utf8');
  } catch (error) {
    throw new EvalError('bad_exercise', `exercise ${name}: ${(error as Error).message}`);
  }
  const files = meta.files;
  if (typeof meta.language !== 'string' || typeof meta.test !== 'string' || !Array.isArray(files) || !files.every((f) => typeof f === 'string')) {
    throw new EvalError('bad_exercise', `exercise ${name}: exercise.json needs "language", "test" and "files" (a list of paths)`);
  }
  return { name, dir, language: meta.language, files: files as string[], test: meta.test, instructions };
}

/** The starting files (repo-relative, posix): everything but the metadata and the hidden tests. */
export async function startingFiles(exercise: Exercise): Promise<string[]> {
  return listFiles(exercise.dir, (top) => !META.has(top));
}

/** The hidden test files, relative to .hidden/. */
export async function hiddenFiles(exercise: Exercise): Promise<string[]> {
  return listFiles(join(exercise.dir, HIDDEN_DIR), () => true);
}

async function listFiles(root: string, keepTop: (name: string) => boolean): Promise<string[]> {
  let entries;
  try {
    entries = await fs.readdirEntries(root, { recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => posixRelative(root, join(e.parentPath, e.name)))
    .filter((path) => keepTop(path.split('/')[0] ?? path) && !path.split('/').includes('__pycache__'))
    .sort();
}
