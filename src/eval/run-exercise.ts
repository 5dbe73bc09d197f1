// One exercise end to end: a fresh temp git repo with the starting files, tandem one-shot with the
// instructions, the hidden tests; on failure another try that resumes the session with the test output,
// like a user would.
import { dirname, join } from 'node:path';
import { nodeFileSystem as fs } from '../platform/file-system.js';
import type { ProcessRunner } from '../platform/process.js';
import { listSessions } from '../session/session-log.js';
import { analyzeEvents, parseEventLines, type ReplyRecord, type StreamStats } from './event-stream.js';
import { HIDDEN_DIR, hiddenFiles, startingFiles, type Exercise } from './exercises.js';
import { runTandemOnce, type TandemLaunch, type TandemRequest } from './tandem-process.js';
import { posixRelative } from '../platform/repo-path.js';

export interface ExerciseRunOptions {
  readonly tries: number;
  readonly testTimeoutMs: number;
  /** Folder the temp repositories are made in (the OS temp folder). */
  readonly tempRoot: string;
  /** USD per million tokens, used when tandem knows no price for the model. */
  readonly prices: { readonly input: number; readonly output: number } | null;
  /** Environment for git and the tests (secrets already removed). */
  readonly testEnv: Record<string, string>;
}

export interface ExerciseDeps {
  readonly launch: TandemLaunch;
  readonly runner: ProcessRunner;
  readonly now: () => number;
}

export interface TestOutcome {
  readonly passed: boolean;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly output: string;
}

/** One try: what tandem's event stream said (StreamStats) plus how it ran and what it left. */
export interface TryResult extends StreamStats {
  readonly n: number;
  readonly message: string;
  /** True when this try continued the previous try's session (--resume), so the model saw that exchange. */
  readonly resumed: boolean;
  readonly exitCode: number | null;
  readonly seconds: number;
  readonly stderr: string;
  /** The repository's files after tandem finished, before the hidden tests were copied in. */
  readonly files: Record<string, string>;
  readonly tests: TestOutcome;
}

export interface ExerciseResult {
  readonly name: string;
  readonly language: string;
  readonly passed: boolean;
  /** 1-based try after which the tests passed; null when they never did. */
  readonly passedOnTry: number | null;
  readonly seconds: number;
  /** The files the model got in the chat, and the repository before the first try (for --replay). */
  readonly chatFiles: string[];
  readonly startingFiles: Record<string, string>;
  readonly tries: TryResult[];
}

const MAX_FEEDBACK_CHARS = 6000;

export async function runExercise(exercise: Exercise, options: ExerciseRunOptions, deps: ExerciseDeps): Promise<ExerciseResult> {
  const started = deps.now();
  const repo = await fs.makeTempDir(join(options.tempRoot, `tandem-eval-${exercise.name}-`));
  try {
    await prepareRepo(exercise, repo, options, deps.runner);
    const starting = await snapshotFiles(repo);
    const tries: TryResult[] = [];
    let request: TandemRequest = { message: exercise.instructions, files: exercise.files, resume: null };
    for (let n = 1; n <= options.tries; n++) {
      const attempt = await runTry(n, request, exercise, repo, options, deps);
      tries.push(attempt);
      if (attempt.tests.passed) break;
      request = retryRequest(exercise, attempt.tests.output, listSessions(repo).at(-1) ?? null);
    }
    const winner = tries.find((t) => t.tests.passed);
    return {
      name: exercise.name,
      language: exercise.language,
      passed: winner !== undefined,
      passedOnTry: winner?.n ?? null,
      seconds: (deps.now() - started) / 1000,
      chatFiles: exercise.files,
      startingFiles: starting,
      tries,
    };
  } finally {
    await fs.removeTree(repo);
  }
}

async function prepareRepo(exercise: Exercise, repo: string, options: ExerciseRunOptions, runner: ProcessRunner): Promise<void> {
  for (const path of await startingFiles(exercise)) await copyInto(join(exercise.dir, path), join(repo, path));
  const init = [
    'git init -q',
    'git add -A',
    'git -c user.name=tandem-eval -c user.email=eval@tandem.invalid -c commit.gpgsign=false commit -q -m "exercise start"',
  ].join(' && ');
  const result = await runner.run(init, { cwd: repo, env: options.testEnv, timeoutMs: 60_000 });
  if (result.exitCode !== 0) throw new Error(`could not create the exercise repository: ${result.output}`);
}

async function runTry(n: number, request: TandemRequest, exercise: Exercise, repo: string, options: ExerciseRunOptions, deps: ExerciseDeps): Promise<TryResult> {
  const started = deps.now();
  const run = await runTandemOnce(repo, request, deps.launch);
  const seconds = (deps.now() - started) / 1000;
  const stats = analyzeEvents(parseEventLines(run.stdout));
  const files = await snapshotFiles(repo);
  const tests = await runHiddenTests(exercise, repo, options, deps.runner);
  const cost = stats.cost ?? priced(stats.promptTokens, stats.completionTokens, options.prices);
  const errors = run.timedOut ? [...stats.errors, 'tandem timed out'] : stats.errors;
  return {
    n,
    message: request.message,
    resumed: request.resume !== null,
    exitCode: run.exitCode,
    status: stats.status,
    seconds,
    editFormat: stats.editFormat,
    replies: stats.replies,
    reflections: stats.reflections,
    syntaxErrors: stats.syntaxErrors,
    promptTokens: stats.promptTokens,
    completionTokens: stats.completionTokens,
    cost,
    errors,
    stderr: run.stderr.slice(-2000),
    files,
    tests,
  };
}

function priced(promptTokens: number, completionTokens: number, prices: ExerciseRunOptions['prices']): number | null {
  if (!prices) return null;
  return (promptTokens * prices.input + completionTokens * prices.output) / 1_000_000;
}

/** Copies the hidden tests in, runs them, and takes them out again so the next try never sees them. */
async function runHiddenTests(exercise: Exercise, repo: string, options: ExerciseRunOptions, runner: ProcessRunner): Promise<TestOutcome> {
  const hidden = await hiddenFiles(exercise);
  for (const path of hidden) await copyInto(join(exercise.dir, HIDDEN_DIR, path), join(repo, path));
  try {
    const env = { ...options.testEnv, PYTHONDONTWRITEBYTECODE: '1' };
    const result = await runner.run(exercise.test, { cwd: repo, env, timeoutMs: options.testTimeoutMs, maxOutputBytes: 64 * 1024 });
    return { passed: result.exitCode === 0, exitCode: result.exitCode, timedOut: result.timedOut, output: result.output };
  } finally {
    for (const path of hidden) await fs.rm(join(repo, path));
  }
}

/**
 * The next try continues the session the last one saved (tandem writes it in the temp repository), so
 * the model already has the task and its own attempt: the message is only what the tests said. A try
 * that saved no session (tandem failed before recording anything) gets a fresh one that restates the task.
 */
export function retryRequest(exercise: Exercise, testOutput: string, sessionId: string | null): TandemRequest {
  const output = fenced(clipped(testOutput));
  if (sessionId !== null) {
    return { message: [`The tests fail (\`${exercise.test}\`):`, '', output].join('\n'), files: exercise.files, resume: sessionId };
  }
  const message = [
    exercise.instructions.trimEnd(),
    '',
    `The code in the chat was meant to do this, but the tests fail. This is their output (\`${exercise.test}\`):`,
    '',
    output,
    '',
    'Fix the code so that the tests pass. Do not change the tests; they are not in the chat.',
  ].join('\n');
  return { message, files: exercise.files, resume: null };
}

/** Keeps the head (what failed first) and the tail (the summary line) of a long test output. */
function clipped(testOutput: string): string {
  if (testOutput.length <= MAX_FEEDBACK_CHARS) return testOutput;
  return `${testOutput.slice(0, MAX_FEEDBACK_CHARS / 2)}\n[...]\n${testOutput.slice(-MAX_FEEDBACK_CHARS / 2)}`;
}

function fenced(text: string): string {
  return ['```', text.trimEnd(), '```'].join('\n');
}

async function copyInto(from: string, to: string): Promise<void> {
  await fs.mkdir(dirname(to));
  await fs.copyFile(from, to);
}

const SKIPPED_DIRS = new Set(['.git', '.tandem', '__pycache__', 'node_modules']);

async function snapshotFiles(repo: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const entries = await fs.readdirEntries(repo, { recursive: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = posixRelative(repo, join(entry.parentPath, entry.name));
    if (path.split('/').some((part) => SKIPPED_DIRS.has(part))) continue;
    files[path] = (await fs.readFile(join(repo, path))).toString('utf8');
  }
  return sortKeys(files);
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
