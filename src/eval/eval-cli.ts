// `tandem eval ...`: parses eval's own options and runs, resumes, compares or replays a run.
// Reached from run-cli.ts by a dynamic import, so plain tandem never loads any of this.
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { EXIT } from '../session/exit-codes.js';
import { compareResults, renderComparison } from './compare.js';
import { EvalError } from './errors.js';
import { parseEvalArgs, renderEvalHelp, type EvalArgs } from './eval-args.js';
import { loadExercises } from './exercises.js';
import { renderReplay, replayResults } from './replay.js';
import { runEval } from './run-eval.js';
import { readResults, readRunInfo, runDir, runIdOf } from './run-store.js';
import { renderExerciseTable, renderSummary } from './summary.js';

/** What the eval takes from the process; the CLI's environment has all of it. */
export interface EvalEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** The folder holding package.json, dist/ and eval/exercises. */
  readonly packageRoot: string;
  /** The Node binary running tandem and the script it runs, to run the same tandem on each exercise. */
  readonly nodePath: string;
  readonly cliPath: string;
}

export async function runEvalCli(environment: EvalEnvironment, argv: readonly string[]): Promise<number> {
  const parsed = parseEvalArgs(argv);
  if (!parsed.ok) {
    environment.stderr.write(`tandem eval: ${parsed.error}\n`);
    return EXIT.usage;
  }
  try {
    return await dispatch(environment, parsed.args);
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    environment.stderr.write(`tandem eval: ${error.message}\n`);
    return error.kind === 'run_not_found' || error.kind === 'no_exercises' ? EXIT.usage : EXIT.error;
  }
}

async function dispatch(environment: EvalEnvironment, args: EvalArgs): Promise<number> {
  const write = (text: string): void => void environment.stdout.write(text);
  switch (args.mode) {
    case 'help':
      write(renderEvalHelp());
      return EXIT.ok;
    case 'list': {
      const exercises = await loadExercises(exercisesDir(environment, args), args.filter);
      write(exercises.map((e) => `${e.name}  (${e.language})\n`).join(''));
      return EXIT.ok;
    }
    case 'compare': {
      const [a = '', b = ''] = args.runs;
      const [dirA, dirB] = [runDir(environment.cwd, a), runDir(environment.cwd, b)];
      await Promise.all([readRunInfo(dirA), readRunInfo(dirB)]);
      const comparison = compareResults(await readResults(dirA), await readResults(dirB));
      write(renderComparison(runIdOf(dirA), runIdOf(dirB), comparison));
      return EXIT.ok;
    }
    case 'replay': {
      const dir = runDir(environment.cwd, args.runs[0] ?? '');
      const info = await readRunInfo(dir);
      write(renderReplay(runIdOf(dir), replayResults(await readResults(dir), info.editFormat)));
      return EXIT.ok;
    }
    case 'run':
    case 'resume':
      return runAndReport(environment, args);
  }
}

async function runAndReport(environment: EvalEnvironment, args: EvalArgs): Promise<number> {
  const outcome = await runEval({
    cwd: environment.cwd,
    defaultExercisesDir: join(environment.packageRoot, 'eval', 'exercises'),
    // The eval runs the same Node and the same built tandem that it is part of.
    nodePath: environment.nodePath,
    cliPath: environment.cliPath,
    env: environment.env,
    tempRoot: tmpdir(),
    ...args,
    exercisesDir: args.exercisesDir === null ? null : resolve(environment.cwd, args.exercisesDir),
    resume: args.mode === 'resume' ? (args.runs[0] ?? null) : null,
    now: () => new Date(),
    progress: (line) => void environment.stderr.write(`${line}\n`),
  });
  environment.stdout.write(`\n${renderExerciseTable(outcome.results)}\n`);
  environment.stdout.write(renderSummary(outcome.runId, outcome.info, outcome.summary));
  environment.stdout.write(`results: ${outcome.dir}\n`);
  if (outcome.crashed.length === 0) return EXIT.ok;
  environment.stderr.write(`tandem eval: ${outcome.crashed.length} exercise(s) could not run; --resume ${outcome.runId} retries them\n`);
  return EXIT.error;
}

function exercisesDir(environment: EvalEnvironment, args: EvalArgs): string {
  return args.exercisesDir === null ? join(environment.packageRoot, 'eval', 'exercises') : resolve(environment.cwd, args.exercisesDir);
}
