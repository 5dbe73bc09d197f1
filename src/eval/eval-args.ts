// `tandem eval` options: one small table from which parsing and the help text come.
// A pure function: argv in, typed options or one error line out.

export type EvalMode = 'run' | 'resume' | 'compare' | 'replay' | 'list' | 'help';

interface OptionRow {
  readonly name: string;
  readonly kind: 'string' | 'int' | 'boolean';
  readonly metavar?: string;
  readonly help: string;
}

export const EVAL_OPTIONS: readonly OptionRow[] = [
  { name: 'model', kind: 'string', metavar: 'NAME', help: 'model to evaluate (passed to tandem)' },
  { name: 'edit-format', kind: 'string', metavar: 'F', help: 'edit format (passed to tandem)' },
  { name: 'architect', kind: 'boolean', help: 'architect mode (passed to tandem)' },
  { name: 'base-url', kind: 'string', metavar: 'URL', help: 'OpenAI-compatible endpoint (passed to tandem)' },
  { name: 'api-key', kind: 'string', metavar: 'KEY', help: 'API key (passed to tandem)' },
  { name: 'tries', kind: 'int', metavar: 'N', help: 'attempts per exercise; each later one resumes the session with the test output (default 2)' },
  { name: 'threads', kind: 'int', metavar: 'N', help: 'exercises run in parallel (default 1)' },
  { name: 'filter', kind: 'string', metavar: 'TEXT', help: 'only exercises whose name contains TEXT or matches it as a regex' },
  { name: 'resume', kind: 'string', metavar: 'RUN', help: 'continue an interrupted run, skipping finished exercises' },
  { name: 'compare', kind: 'string', metavar: 'RUN_A', help: 'with a second RUN: show what changed per exercise' },
  { name: 'replay', kind: 'string', metavar: 'RUN', help: 're-run the stored replies through the current parsers and matchers' },
  { name: 'exercises', kind: 'string', metavar: 'DIR', help: 'exercise folder (default: the bundled eval/exercises)' },
  { name: 'prices', kind: 'string', metavar: 'IN,OUT', help: 'USD per million input,output tokens, for models tandem has no prices for' },
  { name: 'test-timeout', kind: 'int', metavar: 'SECONDS', help: 'kill an exercise test run after this long (default 60)' },
  { name: 'list', kind: 'boolean', help: 'list the exercises (after --filter) and exit' },
  { name: 'help', kind: 'boolean', help: 'show this help' },
];

export interface EvalArgs {
  readonly mode: EvalMode;
  readonly model: string | null;
  readonly editFormat: string | null;
  readonly architect: boolean;
  readonly baseUrl: string | null;
  readonly apiKey: string | null;
  readonly tries: number;
  readonly threads: number;
  readonly filter: string | null;
  /** The run named by --resume or --replay, or the two runs of --compare. */
  readonly runs: string[];
  readonly exercisesDir: string | null;
  readonly prices: { readonly input: number; readonly output: number } | null;
  readonly testTimeoutSeconds: number;
}

export type ParseEvalArgsResult = { ok: true; args: EvalArgs } | { ok: false; error: string };

class EvalUsageError extends Error {
  readonly kind = 'usage';
}

export function parseEvalArgs(argv: readonly string[]): ParseEvalArgsResult {
  try {
    const values = new Map<string, string | number | boolean>();
    const extra: string[] = [];
    for (let i = 0; i < argv.length; i++) i = readOption(argv, i, values, extra);
    return { ok: true, args: toArgs(values, extra) };
  } catch (error) {
    if (error instanceof EvalUsageError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Reads the word at `i` (and its value); returns the index of the last word consumed. */
function readOption(argv: readonly string[], i: number, values: Map<string, string | number | boolean>, extra: string[]): number {
  const word = argv[i] ?? '';
  if (!word.startsWith('--')) {
    extra.push(word);
    return i;
  }
  const [name = '', inline] = splitInline(word.slice(2));
  const row = EVAL_OPTIONS.find((r) => r.name === name);
  if (!row) throw new EvalUsageError(`unknown eval option --${name} (see tandem eval --help)`);
  if (row.kind === 'boolean') {
    if (inline !== undefined) throw new EvalUsageError(`--${name} takes no value`);
    values.set(name, true);
    return i;
  }
  const value = inline ?? argv[i + 1];
  if (value === undefined) throw new EvalUsageError(`--${name} needs a value (${row.metavar ?? 'VALUE'})`);
  values.set(name, row.kind === 'int' ? toPositiveInt(name, value) : value);
  return inline === undefined ? i + 1 : i;
}

function splitInline(text: string): [string, string | undefined] {
  const at = text.indexOf('=');
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

function toPositiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw new EvalUsageError(`--${name} needs a whole number of at least 1, got "${value}"`);
  return n;
}

function toArgs(values: Map<string, string | number | boolean>, extra: string[]): EvalArgs {
  const text = (name: string): string | null => (values.has(name) ? String(values.get(name)) : null);
  const int = (name: string, fallback: number): number => (values.has(name) ? Number(values.get(name)) : fallback);
  const mode = modeOf(values);
  const runs = runsOf(mode, values, extra);
  if (extra.length > 0) throw new EvalUsageError(`unexpected argument "${extra[0]}"`);
  const filter = text('filter');
  return {
    mode,
    model: text('model'),
    editFormat: text('edit-format'),
    architect: values.get('architect') === true,
    baseUrl: text('base-url'),
    apiKey: text('api-key'),
    tries: int('tries', 2),
    threads: int('threads', 1),
    filter,
    runs,
    exercisesDir: text('exercises'),
    prices: parsePrices(text('prices')),
    testTimeoutSeconds: int('test-timeout', 60),
  };
}

function modeOf(values: Map<string, unknown>): EvalMode {
  if (values.has('help')) return 'help';
  const modes = (['resume', 'compare', 'replay'] as const).filter((m) => values.has(m));
  if (modes.length > 1) throw new EvalUsageError(`--${modes[0]} and --${modes[1]} cannot be used together`);
  if (modes[0]) return modes[0];
  if (values.has('list')) return 'list';
  return 'run';
}

function runsOf(mode: EvalMode, values: Map<string, unknown>, extra: string[]): string[] {
  if (mode === 'compare') {
    const second = extra.shift();
    if (second === undefined) throw new EvalUsageError('--compare needs two runs: --compare RUN_A RUN_B');
    return [String(values.get('compare')), second];
  }
  if (mode === 'resume' || mode === 'replay') return [String(values.get(mode))];
  return [];
}

function parsePrices(text: string | null): EvalArgs['prices'] {
  if (text === null) return null;
  const parts = text.split(',').map((p) => Number(p.trim()));
  const [input, output] = parts;
  if (parts.length !== 2 || input === undefined || output === undefined || !parts.every((n) => Number.isFinite(n) && n >= 0)) {
    throw new EvalUsageError(`--prices needs IN,OUT in USD per million tokens, e.g. 2.5,10; got "${text}"`);
  }
  return { input, output };
}

export function renderEvalHelp(): string {
  const rows = EVAL_OPTIONS.map((r) => {
    const left = `  --${r.name}${r.metavar ? ` ${r.metavar}` : ''}`;
    return `${left.padEnd(26)} ${r.help}`;
  });
  return [
    'Usage: tandem eval [options]              run the exercises and print a summary',
    '       tandem eval --resume RUN           finish an interrupted run',
    '       tandem eval --compare RUN_A RUN_B  what changed per exercise',
    '       tandem eval --replay RUN           stored replies through the current parsers and matchers',
    '',
    'Results go to .tandem-eval/<run>/ in the current folder.',
    '',
    ...rows,
    '',
  ].join('\n');
}
