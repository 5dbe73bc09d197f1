// `tandem eval`: runs the chosen exercises (in parallel with --threads), writes one result per exercise
// as it finishes, and summarizes the run. --resume continues a run, skipping exercises with a result.
import { createProcessRunner } from '../platform/process.js';
import { scrubEnvironment } from '../platform/scrub-env.js';
import type { EvalArgs } from './eval-args.js';
import { loadExercises, type Exercise } from './exercises.js';
import { runExercise, type ExerciseResult } from './run-exercise.js';
import { createRun, makeRunId, readResults, readRunInfo, runDir, runIdOf, writeResult, writeSummary, type RunInfo } from './run-store.js';
import { summarize, type EvalSummary } from './summary.js';

/** The eval's own options (as parsed from the command line) plus what the CLI environment supplies. */
export interface RunEvalOptions
  extends Pick<EvalArgs, 'model' | 'editFormat' | 'architect' | 'baseUrl' | 'apiKey' | 'tries' | 'threads' | 'filter' | 'exercisesDir' | 'prices' | 'testTimeoutSeconds'> {
  readonly cwd: string;
  /** The bundled exercises, used when neither --exercises nor the resumed run names a folder. */
  readonly defaultExercisesDir: string;
  readonly nodePath: string;
  readonly cliPath: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly tempRoot: string;
  /** A run id or folder to continue; its stored options win over the ones above. */
  readonly resume: string | null;
  readonly now: () => Date;
  /** Progress lines, one per finished exercise. */
  readonly progress: (line: string) => void;
}

export interface RunEvalResult {
  readonly runId: string;
  readonly dir: string;
  readonly info: RunInfo;
  readonly results: ExerciseResult[];
  readonly summary: EvalSummary;
  /** Exercises that could not be run at all (no result written; --resume retries them). */
  readonly crashed: Array<{ readonly name: string; readonly message: string }>;
}

const TANDEM_TIMEOUT_MS = 15 * 60 * 1000;

export async function runEval(options: RunEvalOptions): Promise<RunEvalResult> {
  const { info, dir } = await openRun(options);
  const exercises = await loadExercises(info.exercisesDir, info.filter);
  const done = new Set((await readResults(dir)).map((r) => r.name));
  const todo = exercises.filter((e) => !done.has(e.name));
  if (done.size > 0) options.progress(`resuming ${info.id}: ${done.size} done, ${todo.length} to go`);
  const crashed: RunEvalResult['crashed'] = [];
  let finished = done.size;
  await inPool(todo, options.threads, async (exercise) => {
    try {
      const result = await runOne(exercise, info, options);
      await writeResult(dir, result);
      finished++;
      const outcome = result.passed ? `pass (try ${result.passedOnTry})` : 'fail';
      options.progress(`[${finished}/${exercises.length}] ${exercise.name}  ${outcome}  ${result.seconds.toFixed(1)}s`);
    } catch (error) {
      crashed.push({ name: exercise.name, message: (error as Error).message });
      options.progress(`[-] ${exercise.name}  could not run: ${(error as Error).message}`);
    }
  });
  const names = new Set(exercises.map((e) => e.name));
  const results = (await readResults(dir)).filter((r) => names.has(r.name));
  const summary = summarize(results, info.tries);
  await writeSummary(dir, summary);
  return { runId: info.id, dir, info, results, summary, crashed };
}

async function openRun(options: RunEvalOptions): Promise<{ info: RunInfo; dir: string }> {
  if (options.resume !== null) {
    const dir = runDir(options.cwd, options.resume);
    const info = await readRunInfo(dir);
    return { info: { ...info, id: runIdOf(dir) }, dir };
  }
  const id = makeRunId(options.now(), options.model, options.editFormat, options.architect);
  const info: RunInfo = {
    id,
    startedAt: options.now().toISOString(),
    model: options.model,
    editFormat: options.editFormat,
    architect: options.architect,
    baseUrl: options.baseUrl,
    tries: options.tries,
    filter: options.filter,
    exercisesDir: options.exercisesDir ?? options.defaultExercisesDir,
    prices: options.prices,
    testTimeoutSeconds: options.testTimeoutSeconds,
  };
  return { info, dir: await createRun(options.cwd, info) };
}

function runOne(exercise: Exercise, info: RunInfo, options: RunEvalOptions): Promise<ExerciseResult> {
  const launch = {
    nodePath: options.nodePath,
    cliPath: options.cliPath,
    env: options.env,
    passThrough: passThroughArgs(info, options.apiKey),
    timeoutMs: TANDEM_TIMEOUT_MS,
  };
  return runExercise(
    exercise,
    {
      tries: info.tries,
      testTimeoutMs: info.testTimeoutSeconds * 1000,
      tempRoot: options.tempRoot,
      prices: info.prices,
      testEnv: scrubEnvironment(options.env),
    },
    { launch, runner: createProcessRunner(), now: () => options.now().getTime() },
  );
}

/** The options handed to every tandem run. The API key is never stored in run.json. */
function passThroughArgs(info: RunInfo, apiKey: string | null): string[] {
  const args: string[] = [];
  if (info.model !== null) args.push('--model', info.model);
  if (info.editFormat !== null) args.push('--edit-format', info.editFormat);
  if (info.architect) args.push('--architect');
  if (info.baseUrl !== null) args.push('--base-url', info.baseUrl);
  if (apiKey !== null) args.push('--api-key', apiKey);
  return args;
}

async function inPool<T>(items: readonly T[], threads: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(threads, items.length)) }, worker));
}
