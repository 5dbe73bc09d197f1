// Command-line parsing, driven entirely by the option table in config/schema.ts.
// A pure function: argv in, typed flags or one error line out.

import {
  OPTIONS,
  checkTextValue,
  closestName,
  expectedOf,
  isSettingKey,
  specOf,
  type OptionSpec,
  type SettingKey,
  type Settings,
} from '../config/schema.js';
import { TandemError } from '../platform/errors.js';

export type ParseArgsResult =
  | { ok: true; flags: Partial<Settings>; files: string[]; explicit: Set<SettingKey> }
  | { ok: false; error: string };

/** Session ids look like `20250131-142530-a1b2`: only such a word after a bare `--resume` is its value. */
const SESSION_ID_PATTERN = /^\d{8}-\d{6}-[A-Za-z0-9]+$/;

export function looksLikeSessionId(word: string): boolean {
  return SESSION_ID_PATTERN.test(word);
}

class UsageError extends TandemError {
  readonly kind = 'usage';
}

interface ParseState {
  readonly values: Record<string, unknown>;
  readonly files: string[];
  readonly explicit: Set<SettingKey>;
}

export function parseArgs(argv: readonly string[]): ParseArgsResult {
  const state: ParseState = { values: {}, files: [], explicit: new Set() };
  try {
    let i = 0;
    while (i < argv.length) i = parseOne(argv, i, state);
  } catch (error) {
    if (error instanceof UsageError) return { ok: false, error: error.message };
    throw error;
  }
  if (state.values['message'] !== undefined && state.values['message-file'] !== undefined) {
    return { ok: false, error: '--message and --message-file cannot be used together' };
  }
  if (state.files.length > 0) {
    state.values['files'] = [...state.files];
    state.explicit.add('files');
  }
  return { ok: true, flags: state.values as Partial<Settings>, files: state.files, explicit: state.explicit };
}

/** Consumes the word at `i` (and its value, if separate); returns the index of the next word. */
function parseOne(argv: readonly string[], i: number, state: ParseState): number {
  const word = argv[i] ?? '';
  if (word === '--') {
    state.files.push(...argv.slice(i + 1));
    return argv.length;
  }
  if (word.startsWith('--')) return parseLong(argv, i, state);
  if (word.startsWith('-') && word.length > 1) return parseShort(argv, i, state);
  state.files.push(word);
  return i + 1;
}

function parseLong(argv: readonly string[], i: number, state: ParseState): number {
  const word = argv[i] ?? '';
  const eq = word.indexOf('=');
  const name = word.slice(2, eq === -1 ? undefined : eq);
  const inline = eq === -1 ? undefined : word.slice(eq + 1);

  const key = resolveLong(name);
  if (key.negated) {
    if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
    store(state, key.key, false);
    return i + 1;
  }
  return takeValue(argv, i, key.key, `--${key.key}`, inline, state);
}

function parseShort(argv: readonly string[], i: number, state: ParseState): number {
  const word = argv[i] ?? '';
  const letter = word.slice(1, 2);
  const key = Object.keys(OPTIONS).find((k) => isSettingKey(k) && specOf(k).short === letter);
  if (key === undefined || !isSettingKey(key)) throw new UsageError(`unknown option ${word} (see tandem --help)`);
  // -mTEXT and -m=TEXT carry their value in the same word
  const rest = word.slice(2);
  const inline = rest === '' ? undefined : rest.replace(/^=/, '');
  return takeValue(argv, i, key, `-${letter}`, inline, state);
}

/** Maps `map-tokens` / `no-auto-commits` to a setting, or throws the unknown-option line. */
function resolveLong(name: string): { key: SettingKey; negated: boolean } {
  if (isSettingKey(name) && !specOf(name).positional) return { key: name, negated: false };
  if (name.startsWith('no-')) {
    const base = name.slice(3);
    if (isSettingKey(base)) {
      const spec = specOf(base);
      if (spec.type === 'boolean' && spec.negatable !== false) return { key: base, negated: true };
    }
  }
  const suggestion = closestName(name, flagNames());
  const hint = suggestion === null ? '' : `; did you mean --${suggestion}?`;
  throw new UsageError(`unknown option --${name}${hint} (see tandem --help)`);
}

/** Every spelling a user may type after `--`, for typo suggestions. */
function flagNames(): string[] {
  const names: string[] = [];
  for (const key of Object.keys(OPTIONS)) {
    if (!isSettingKey(key)) continue;
    const spec = specOf(key);
    if (spec.positional) continue;
    names.push(key);
    if (spec.type === 'boolean' && spec.negatable !== false) names.push(`no-${key}`);
  }
  return names;
}

function takeValue(
  argv: readonly string[],
  i: number,
  key: SettingKey,
  shown: string,
  inline: string | undefined,
  state: ParseState,
): number {
  const spec = specOf(key);
  if (spec.type === 'boolean') {
    if (inline === undefined) {
      store(state, key, true);
      return i + 1;
    }
    if (spec.negatable === false) throw new UsageError(`${shown} takes no value`);
    storeChecked(state, key, spec, shown, inline);
    return i + 1;
  }
  if (inline !== undefined) {
    storeChecked(state, key, spec, shown, inline);
    return i + 1;
  }
  if (spec.type === 'string' && spec.optionalValue !== undefined) {
    // `--resume file.py` must keep file.py a file: only a session-id-shaped word is the value
    const next = argv[i + 1];
    const takes = spec.optionalValueTakes === 'word' ? next !== undefined && !next.startsWith('-') : next !== undefined && looksLikeSessionId(next);
    if (next !== undefined && takes) {
      store(state, key, next);
      return i + 2;
    }
    store(state, key, spec.optionalValue);
    return i + 1;
  }
  const next = argv[i + 1];
  if (next === undefined) throw new UsageError(`${shown} needs a value (${describeMetavar(spec)})`);
  storeChecked(state, key, spec, shown, next);
  return i + 2;
}

function describeMetavar(spec: OptionSpec): string {
  if (spec.type === 'int' || spec.type === 'enum') return expectedOf(spec);
  return spec.metavar ?? 'a value';
}

function storeChecked(state: ParseState, key: SettingKey, spec: OptionSpec, shown: string, raw: string): void {
  if (raw === '' && spec.type !== 'boolean' && spec.type !== 'enum' && spec.type !== 'int') {
    throw new UsageError(`${shown}: empty value`);
  }
  const checked = checkTextValue(spec, raw);
  if (!checked.ok) throw new UsageError(`${shown}: ${checked.describe(`'${raw}'`)}`);
  store(state, key, checked.value);
}

/** Repeatable options accumulate; any other option given twice keeps the last value. */
function store(state: ParseState, key: SettingKey, value: unknown): void {
  const spec = specOf(key);
  if (spec.type === 'string[]') {
    const before = (state.values[key] as string[] | undefined) ?? [];
    state.values[key] = [...before, ...(value as string[])];
  } else {
    state.values[key] = value;
  }
  state.explicit.add(key);
}
