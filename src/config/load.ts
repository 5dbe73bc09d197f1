// Layered configuration: defaults, home file, repository file, --config file, environment (.env
// fills gaps), flags; later wins. Never throws: every mistake becomes a ConfigProblem.

import { createRequire } from 'node:module';
import path from 'node:path';
import {
  checkConfigValue,
  checkTextValue,
  closestName,
  defaultSettings,
  envNamesOf,
  isSettingKey,
  settingKeys,
  specOf,
  type CheckedValue,
  type SettingKey,
  type Settings,
} from './schema.js';
import { judgeRepoValue } from './repo-policy.js';
import { ReadRefusedError } from '../platform/text-files.js';

export type SettingSource = 'default' | 'home' | 'repo' | 'config-file' | 'dotenv' | 'env-file' | 'env' | 'flag';

export interface ConfigProblem {
  /** Errors make the command line invalid (exit 2); warnings are shown and ignored. */
  readonly severity: 'error' | 'warning';
  readonly source: SettingSource;
  /** One line naming the file (or variable), the key and the value. */
  readonly message: string;
}

/** A command a repository's own config named: run it only once the user approved this exact text. */
export interface ApprovalNeeded {
  readonly key: SettingKey;
  readonly value: string;
  readonly source: 'repo' | 'dotenv';
  /** The file that set it, for the question. */
  readonly file: string;
  /** The value is a secret (the API key): the question names the file, never the value. */
  readonly secret?: boolean;
  /** A setting that raises what a request may cost (a model, more reflections), not a command. */
  readonly cost?: boolean;
}

export interface LoadConfigOptions {
  readonly homeDir: string;
  /** null outside a repository: no repository file and no .env. */
  readonly repoRoot: string | null;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Typed flags from parseArgs. */
  readonly flags: Partial<Settings>;
  /** --config FILE, absolute; defaults to flags.config. */
  readonly explicitConfigFile?: string | null;
  /** --env-file FILE, absolute: the user's own .env, read instead of the repository's. */
  readonly envFile?: string | null;
  /** Returns null when the file does not exist. May throw for other failures (reported as problems). */
  readonly readFile: (file: string) => string | null;
}

export interface LoadConfigResult {
  readonly settings: Settings;
  readonly sources: Map<SettingKey, SettingSource>;
  readonly problems: ConfigProblem[];
  readonly approvalsNeeded: ApprovalNeeded[];
}

const CONFIG_FILE_NAME = '.tandem.conf.yml';

type YamlModule = typeof import('yaml');
let yaml: YamlModule | undefined;

/** yaml is loaded by the first file or list that needs it: most runs have no config file at all. */
function parseYaml(text: string): ReturnType<YamlModule['parseDocument']> {
  yaml ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return yaml.parseDocument(text);
}

interface LoadState {
  readonly repoRoot: string | null;
  /** The file each repository-sourced setting came from. */
  readonly files: Map<SettingKey, string>;
  readonly values: Record<string, unknown>;
  readonly sources: Map<SettingKey, SettingSource>;
  readonly problems: ConfigProblem[];
}

export function loadConfig(options: LoadConfigOptions): LoadConfigResult {
  const state: LoadState = {
    repoRoot: options.repoRoot,
    files: new Map(),
    values: { ...defaultSettings() },
    sources: new Map(settingKeys().map((key) => [key, 'default' as const])),
    problems: [],
  };
  const homeFile = path.join(options.homeDir, CONFIG_FILE_NAME);
  readConfigFile(state, options, homeFile, `~/${CONFIG_FILE_NAME}`, 'home');
  // a repository rooted at the home directory: its file is the user's own, read once as such
  const repoIsHome = options.repoRoot !== null && samePath(options.repoRoot, options.homeDir);
  if (options.repoRoot !== null && !repoIsHome) {
    const repoFile = path.join(options.repoRoot, CONFIG_FILE_NAME);
    readConfigFile(state, options, repoFile, repoFile, 'repo');
  }
  const explicit = options.explicitConfigFile ?? options.flags.config ?? null;
  if (explicit !== null) readConfigFile(state, options, explicit, explicit, 'config-file');
  readEnvironment(state, options);
  for (const key of Object.keys(options.flags)) {
    const value: unknown = (options.flags as Record<string, unknown>)[key];
    if (value === undefined || !isSettingKey(key)) continue;
    assign(state, key, value, 'flag');
  }
  return {
    settings: state.values as Settings,
    sources: state.sources,
    problems: state.problems,
    approvalsNeeded: approvalsFor(state),
  };
}

function samePath(a: string, b: string): boolean {
  const clean = (p: string) => path.normalize(p).replace(/[\\/]+$/, '');
  return clean(a) === clean(b);
}

function assign(state: LoadState, key: SettingKey, value: unknown, source: SettingSource): void {
  state.values[key] = value;
  state.sources.set(key, source);
}

function problem(state: LoadState, severity: 'error' | 'warning', source: SettingSource, message: string): void {
  state.problems.push({ severity, source, message });
}

function readConfigFile(
  state: LoadState,
  options: LoadConfigOptions,
  file: string,
  shown: string,
  source: 'home' | 'repo' | 'config-file',
): void {
  let text: string | null;
  try {
    text = options.readFile(file);
  } catch (error) {
    // A repository's config that is a FIFO, /dev/zero, huge, or a link out of the repository is skipped, not fatal
    if (source === 'repo' && isRefusedRead(error)) problem(state, 'warning', source, `${firstLine(error)}; ignored`);
    else problem(state, 'error', source, `${shown}: cannot read: ${firstLine(error)}`);
    return;
  }
  if (text === null) {
    if (source === 'config-file') problem(state, 'error', source, `${shown}: file not found`);
    return;
  }
  const doc = parseYaml(text);
  const yamlError = doc.errors[0];
  if (yamlError !== undefined) {
    problem(state, 'error', source, `${shown}: not valid YAML: ${firstLine(yamlError)}`);
    return;
  }
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (error) {
    // unresolved aliases and alias bombs only surface when the document is converted
    problem(state, 'error', source, `${shown}: not valid YAML: ${firstLine(error)}`);
    return;
  }
  if (data === null || data === undefined) return;
  if (typeof data !== 'object' || Array.isArray(data)) {
    problem(state, 'error', source, `${shown}: expected a mapping of option names to values`);
    return;
  }
  for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
    // an empty `model:` line means "not set here"
    if (value === null || value === undefined) continue;
    const key = knownKey(state, source, shown, name);
    if (key === null) continue;
    const checked = checkConfigValue(specOf(key), value);
    if (!checked.ok) {
      problem(state, 'error', source, `${shown}: ${key}: ${checked.describe(JSON.stringify(value))}`);
      continue;
    }
    assignChecked(state, key, checked.value, source, shown);
  }
}

/** Resolves a config key or environment name to a setting, warning about unknown and CLI-only ones. */
function knownKey(state: LoadState, source: SettingSource, shown: string, name: string): SettingKey | null {
  if (!isSettingKey(name)) {
    const configurable = settingKeys().filter((key) => !specOf(key).cliOnly);
    const suggestion = closestName(name, configurable);
    const hint = suggestion === null ? '' : `; did you mean ${suggestion}?`;
    problem(state, 'warning', source, `${shown}: unknown setting '${name}' ignored${hint}`);
    return null;
  }
  if (specOf(name).cliOnly) {
    problem(state, 'warning', source, `${shown}: ${name} can only be given on the command line; ignored`);
    return null;
  }
  return name;
}

/** Applies the repository policy (repo-policy.ts) to a value a file or the environment set. */
function assignChecked(state: LoadState, key: SettingKey, value: unknown, source: SettingSource, shown: string): void {
  const fromRepository = source === 'repo' || source === 'dotenv';
  const verdict = fromRepository
    ? judgeRepoValue({ key, value, shown, current: state.sources.get(key) ?? 'default', repoRoot: state.repoRoot })
    : { value, warnings: [] };
  for (const warning of verdict.warnings) problem(state, 'warning', source, warning);
  if (!('value' in verdict)) return;
  assign(state, key, verdict.value, source);
  if (fromRepository) state.files.set(key, fileOf(shown));
}

/** `/repo/.env: OPENAI_API_KEY` -> `/repo/.env`. */
function fileOf(shown: string): string {
  return shown.replace(/: [A-Z_][A-Z0-9_]*$/, '');
}

function readEnvironment(state: LoadState, options: LoadConfigOptions): void {
  // The user's --env-file is theirs (no approval); without one, the repository's .env is a stranger's.
  const userFile = options.envFile ?? null;
  const dotenvFile = userFile ?? (options.repoRoot === null ? null : path.join(options.repoRoot, '.env'));
  const dotenvSource: SettingSource = userFile === null ? 'dotenv' : 'env-file';
  const dotenv = dotenvFile === null ? new Map<string, string>() : readDotenv(state, options, dotenvFile, userFile !== null);
  warnUnknownEnv(state, options.env, 'env');
  warnUnknownEnv(state, Object.fromEntries(dotenv), dotenvSource, dotenvFile ?? '');
  for (const key of settingKeys()) {
    const names = envNamesOf(key);
    // the real environment wins over .env, whichever of a setting's names each one uses
    const real = names.find((name) => nonEmpty(options.env[name]));
    if (real !== undefined) {
      applyEnvValue(state, key, options.env[real] ?? '', 'env', real);
      continue;
    }
    const fromFile = names.find((name) => nonEmpty(dotenv.get(name)));
    if (fromFile !== undefined) {
      applyEnvValue(state, key, dotenv.get(fromFile) ?? '', dotenvSource, `${dotenvFile}: ${fromFile}`);
    }
  }
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

function applyEnvValue(state: LoadState, key: SettingKey, raw: string, source: SettingSource, shown: string): void {
  const spec = specOf(key);
  const checked: CheckedValue =
    spec.type === 'string[]' && raw.trimStart().startsWith('[') ? checkFlowList(raw) : checkTextValue(spec, raw);
  if (!checked.ok) {
    problem(state, 'error', source, `${shown}: ${checked.describe(JSON.stringify(raw))}`);
    return;
  }
  assignChecked(state, key, checked.value, source, shown);
}

/** A list in one variable, written as a YAML flow sequence: `TANDEM_READ='[a.md, b.md]'`. */
function checkFlowList(raw: string): CheckedValue {
  const doc = parseYaml(raw);
  let value: unknown;
  try {
    value = doc.errors.length === 0 ? doc.toJS() : undefined;
  } catch {
    value = undefined;
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return { ok: true, value };
  return { ok: false, describe: (shown) => `expected a list of strings like [a, b], got ${shown}` };
}

function warnUnknownEnv(
  state: LoadState,
  env: Readonly<Record<string, string | undefined>>,
  source: SettingSource,
  file = '',
): void {
  const known = new Set(settingKeys().flatMap((key) => envNamesOf(key)));
  const prefix = file === '' ? '' : `${file}: `;
  for (const name of Object.keys(env)) {
    if (!name.startsWith('TANDEM_') || known.has(name) || !nonEmpty(env[name])) continue;
    const suggestion = closestName(name, [...known]);
    const hint = suggestion === null ? '' : `; did you mean ${suggestion}?`;
    problem(state, 'warning', source, `${prefix}unknown variable ${name} ignored${hint}`);
  }
}

function readDotenv(state: LoadState, options: LoadConfigOptions, file: string, named = false): Map<string, string> {
  let text: string | null;
  try {
    text = options.readFile(file);
  } catch (error) {
    problem(state, named ? 'error' : 'warning', named ? 'env-file' : 'dotenv', `${file}: cannot read: ${firstLine(error)}`);
    return new Map();
  }
  if (text === null && named) problem(state, 'error', 'env-file', `--env-file: ${file}: file not found`);
  if (text === null) return new Map();
  // .env files often hold other tools' secrets: take only what tandem reads
  const wanted = (name: string) =>
    name.startsWith('TANDEM_') || name === 'OPENAI_API_KEY' || name === 'OPENAI_BASE_URL';
  return new Map([...parseDotenv(text)].filter(([name]) => wanted(name)));
}

/** KEY=VALUE lines: `#` comments, an optional `export ` prefix, single or double quotes. */
export function parseDotenv(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim().replace(/^export\s+/, '');
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (match === null) continue;
    out.set(match[1] ?? '', dotenvValue(match[2] ?? ''));
  }
  return out;
}

function dotenvValue(rest: string): string {
  const quote = rest[0];
  if (quote === "'" || quote === '"') {
    const end = findClosingQuote(rest, quote);
    if (end !== -1) {
      const inner = rest.slice(1, end);
      if (quote === "'") return inner;
      return inner.replace(/\\([nrt"\\])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t' })[c] ?? c);
    }
  }
  // unquoted: a # after whitespace starts a comment
  return rest.replace(/\s+#.*$/, '').trim();
}

function findClosingQuote(text: string, quote: string): number {
  for (let i = 1; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') {
      i++;
      continue;
    }
    if (text[i] === quote) return i;
  }
  return -1;
}

function approvalsFor(state: LoadState): ApprovalNeeded[] {
  const out: ApprovalNeeded[] = [];
  for (const key of settingKeys()) {
    const source = state.sources.get(key);
    const policy = specOf(key).repo;
    if (source !== 'repo' && source !== 'dotenv') continue;
    const value = state.values[key];
    const file = state.files.get(key) ?? '';
    if (policy === 'raises-cost') {
      if (raisesCost(key, value)) out.push({ key, value: String(value), source, file, cost: true });
      continue;
    }
    if (policy !== 'needs-approval' && policy !== 'user-first') continue;
    const commands = Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];
    const secret = specOf(key).secret === true;
    for (const command of commands) out.push({ key, value: command, source, file, ...(secret ? { secret } : {}) });
  }
  return out;
}

/** A number above the default (any number when the default is computed), `true`, any model or effort named. */
function raisesCost(key: SettingKey, value: unknown): boolean {
  const spec = specOf(key);
  if (typeof value === 'number') return spec.type !== 'int' || spec.default === null || value > spec.default;
  if (typeof value === 'boolean') return value;
  if (value === spec.default) return false;
  return value !== null && value !== undefined && value !== '';
}

/** Errors a confined reader throws for files it will not read (see configReader in cli/start.ts). */
function isRefusedRead(error: unknown): boolean {
  if (!(error instanceof ReadRefusedError)) return false;
  return error.kind === 'not_regular' || error.kind === 'too_large' || error.kind === 'outside_repo';
}

/** An error's first line, for a one-line problem. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
