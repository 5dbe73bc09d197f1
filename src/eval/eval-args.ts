// `tandem eval` options. The model and server flags it passes on to tandem are the rows of the one
// option table marked `eval` (config/schema.ts), so their names, help and checks cannot drift from
// tandem's own; the rows below are the options only the eval has. A pure function: argv in, typed
// options or one error line out.
import { OPTIONS, checkTextValue, expectedOf, type OptionSpec } from '../config/schema.js';
import type { CoderFormat } from '../coders/coder.js';
import { TandemError } from '../platform/errors.js';

export type EvalMode = 'run' | 'resume' | 'compare' | 'replay' | 'list' | 'help';

interface OptionRow {
  readonly name: string;
  readonly spec: OptionSpec;
}

// `group` only places a row in tandem's --help, which never shows these.
const OWN_OPTIONS: Record<string, OptionSpec> = {
  tries: { type: 'int', min: 1, default: 2, group: 'general', metavar: 'N', help: 'attempts per exercise; each later one resumes the session with the test output' },
  threads: { type: 'int', min: 1, default: 1, group: 'general', metavar: 'N', help: 'exercises run in parallel' },
  filter: { type: 'string', default: null, group: 'general', metavar: 'TEXT', help: 'only exercises whose name contains TEXT or matches it as a regex' },
  resume: { type: 'string', default: null, group: 'general', metavar: 'RUN', help: 'continue an interrupted run, skipping finished exercises' },
  compare: { type: 'string', default: null, group: 'general', metavar: 'RUN_A', help: 'with a second RUN: show what changed per exercise' },
  replay: { type: 'string', default: null, group: 'general', metavar: 'RUN', help: 're-run the stored replies through the current parsers and matchers' },
  exercises: { type: 'string', default: null, group: 'general', metavar: 'DIR', defaultLabel: 'the bundled eval/exercises', help: 'exercise folder' },
  prices: { type: 'string', default: null, group: 'general', metavar: 'IN,OUT', help: 'USD per million input,output tokens, for models tandem has no prices for' },
  'test-timeout': { type: 'int', min: 1, default: 60, group: 'general', metavar: 'SECONDS', help: 'kill an exercise test run after this long' },
  list: { type: 'boolean', default: false, negatable: false, group: 'general', help: 'list the exercises (after --filter) and exit' },
  help: { type: 'boolean', default: false, negatable: false, group: 'general', help: 'show this help' },
};

/** The flags of `tandem eval`: the pass-through rows of the option table first, then the eval's own. */
export const EVAL_OPTIONS: readonly OptionRow[] = [
  ...Object.entries(OPTIONS).flatMap(([name, spec]): OptionRow[] => ('eval' in spec && spec.eval ? [{ name, spec }] : [])),
  ...Object.entries(OWN_OPTIONS).map(([name, spec]) => ({ name, spec })),
];

export interface EvalArgs {
  readonly mode: EvalMode;
  readonly model: string | null;
  readonly editFormat: CoderFormat | null;
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

class EvalUsageError extends TandemError {
  readonly kind = 'usage';
}

type Values = Map<string, unknown>;

export function parseEvalArgs(argv: readonly string[]): ParseEvalArgsResult {
  try {
    const values: Values = new Map();
    const extra: string[] = [];
    for (let i = 0; i < argv.length; i++) i = readOption(argv, i, values, extra);
    return { ok: true, args: toArgs(values, extra) };
  } catch (error) {
    if (error instanceof EvalUsageError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Reads the word at `i` (and its value); returns the index of the last word consumed. */
function readOption(argv: readonly string[], i: number, values: Values, extra: string[]): number {
  const word = argv[i] ?? '';
  if (!word.startsWith('--')) {
    extra.push(word);
    return i;
  }
  const [name = '', inline] = splitInline(word.slice(2));
  const row = EVAL_OPTIONS.find((r) => r.name === name);
  if (row?.spec.type === 'boolean') {
    if (inline !== undefined) throw new EvalUsageError(`--${name} takes no value`);
    values.set(name, true);
    return i;
  }
  if (!row) throw new EvalUsageError(`unknown eval option --${name} (see tandem eval --help)`);
  const value = inline ?? argv[i + 1];
  if (value === undefined) throw new EvalUsageError(`--${name} needs a value (${describeValue(row.spec)})`);
  const checked = checkTextValue(row.spec, value);
  if (!checked.ok) throw new EvalUsageError(`--${name}: ${checked.describe(`'${value}'`)}`);
  values.set(name, checked.value);
  return inline === undefined ? i + 1 : i;
}

function describeValue(spec: OptionSpec): string {
  return spec.type === 'int' || spec.type === 'enum' ? expectedOf(spec) : (spec.metavar ?? 'a value');
}

function splitInline(text: string): [string, string | undefined] {
  const at = text.indexOf('=');
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

function defaultOf(name: string): unknown {
  return EVAL_OPTIONS.find((row) => row.name === name)?.spec.default ?? null;
}

function toArgs(values: Values, extra: string[]): EvalArgs {
  const text = (name: string): string | null => (values.has(name) ? String(values.get(name)) : null);
  const int = (name: string): number => Number(values.get(name) ?? defaultOf(name));
  const mode = modeOf(values);
  const runs = runsOf(mode, values, extra);
  if (extra.length > 0) throw new EvalUsageError(`unexpected argument "${extra[0]}"`);
  return {
    mode,
    // unset pass-through flags stay null: each tandem run then applies its own defaults and config
    model: text('model'),
    editFormat: (values.get('edit-format') as CoderFormat | undefined) ?? null,
    architect: values.get('architect') === true,
    baseUrl: text('base-url'),
    apiKey: text('api-key'),
    tries: int('tries'),
    threads: int('threads'),
    filter: text('filter'),
    runs,
    exercisesDir: text('exercises'),
    prices: parsePrices(text('prices')),
    testTimeoutSeconds: int('test-timeout'),
  };
}

function modeOf(values: Values): EvalMode {
  if (values.has('help')) return 'help';
  const modes = (['resume', 'compare', 'replay'] as const).filter((m) => values.has(m));
  if (modes.length > 1) throw new EvalUsageError(`--${modes[0]} and --${modes[1]} cannot be used together`);
  if (modes[0]) return modes[0];
  if (values.has('list')) return 'list';
  return 'run';
}

function runsOf(mode: EvalMode, values: Values, extra: string[]): string[] {
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
  const rows = EVAL_OPTIONS.map(({ name, spec }) => {
    const left = `  --${name}${spec.metavar ? ` ${spec.metavar}` : ''}`;
    if (spec.eval) return `${left.padEnd(26)} ${spec.help} (passed to tandem)`;
    const fallback = spec.defaultLabel ?? (spec.type === 'int' ? String(spec.default) : null);
    return `${left.padEnd(26)} ${spec.help}${fallback === null ? '' : ` (default ${fallback})`}`;
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
