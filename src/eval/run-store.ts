// Where a run lives: <cwd>/.tandem-eval/<run-id>/ with run.json (its options), one <exercise>.json per
// finished exercise (written atomically, so --resume can trust any file it finds) and summary.json.
import { basename, isAbsolute, join } from 'node:path';
import { nodeFileSystem as fs } from '../platform/file-system.js';
import { EvalError } from './errors.js';
import type { ExerciseResult } from './run-exercise.js';

const EVAL_DIR = '.tandem-eval';
const RUN_FILE = 'run.json';
const SUMMARY_FILE = 'summary.json';

/** What a run was asked to do; --resume and --replay read it back. */
export interface RunInfo {
  readonly id: string;
  readonly startedAt: string;
  readonly model: string | null;
  readonly editFormat: string | null;
  readonly architect: boolean;
  readonly baseUrl: string | null;
  readonly tries: number;
  readonly filter: string | null;
  readonly exercisesDir: string;
  readonly prices: { readonly input: number; readonly output: number } | null;
  readonly testTimeoutSeconds: number;
}

/** e.g. 20250131-142530--gpt-4o--diff: sorts by time, and says what was measured. */
export function makeRunId(date: Date, model: string | null, editFormat: string | null, architect: boolean): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
  const clean = (text: string): string => text.replace(/[^A-Za-z0-9._-]+/g, '_');
  const format = `${editFormat ?? 'default'}${architect ? '-architect' : ''}`;
  return `${stamp}--${clean(model ?? 'default-model')}--${clean(format)}`;
}

/** A run named by id (looked up under .tandem-eval) or by a path to its folder. */
export function runDir(cwd: string, run: string): string {
  if (isAbsolute(run) || run.includes('/')) return isAbsolute(run) ? run : join(cwd, run);
  return join(cwd, EVAL_DIR, run);
}

export async function createRun(cwd: string, info: RunInfo): Promise<string> {
  const dir = runDir(cwd, info.id);
  await fs.mkdir(dir);
  await writeJson(join(dir, RUN_FILE), info);
  return dir;
}

export async function readRunInfo(dir: string): Promise<RunInfo> {
  try {
    return JSON.parse((await fs.readFile(join(dir, RUN_FILE))).toString('utf8')) as RunInfo;
  } catch {
    throw new EvalError('run_not_found', `no eval run at ${dir} (expected ${RUN_FILE} there)`);
  }
}

export async function readResults(dir: string): Promise<ExerciseResult[]> {
  const names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json') && n !== RUN_FILE && n !== SUMMARY_FILE);
  const results: ExerciseResult[] = [];
  for (const name of names.sort()) {
    try {
      results.push(JSON.parse((await fs.readFile(join(dir, name))).toString('utf8')) as ExerciseResult);
    } catch {
      throw new EvalError('bad_run', `${join(dir, name)} is not a readable result`);
    }
  }
  return results;
}

export async function writeResult(dir: string, result: ExerciseResult): Promise<void> {
  await writeJson(join(dir, `${result.name}.json`), result);
}

export async function writeSummary(dir: string, summary: unknown): Promise<void> {
  await writeJson(join(dir, SUMMARY_FILE), summary);
}

export function runIdOf(dir: string): string {
  return basename(dir);
}

async function writeJson(path: string, value: unknown): Promise<void> {
  const temp = `${path}.tmp`;
  await fs.writeFile(temp, `${JSON.stringify(value, null, 2)}\n`);
  await fs.rename(temp, path);
}
