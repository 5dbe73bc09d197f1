// Reading a user's model settings file (YAML, Aider's `.aider.model.settings.yml` keys, or tandem's own
// kebab-case spelling) and model metadata file (JSON, Aider's `.aider.model.metadata.json` / LiteLLM keys)
// into entries of the model table. Pure: text in, entries and one-line problems (with file and line) out.
import { createRequire } from 'node:module';
import type { Document, LineCounter as LineCounterType, Node as YamlNode, Pair, YAMLMap } from 'yaml';
import { ACCEPTED_SETTINGS, isEditFormat, type ModelFields, type RawEntry } from './model-settings.js';

export interface ModelFileProblem {
  /** An error makes the run's configuration invalid (exit 2); a warning is shown and the key ignored. */
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

export interface ModelFileEntry {
  readonly entry: RawEntry;
  /** The line of the entry's name, and of each field it sets (by field name), for warnings. */
  readonly line: number;
  readonly lines: Readonly<Record<string, number>>;
}

export interface ParsedModelFile {
  readonly entries: ModelFileEntry[];
  readonly problems: ModelFileProblem[];
}

type YamlModule = typeof import('yaml');
let yaml: YamlModule | undefined;

/** yaml is loaded by the first file that needs it; most runs have none. */
function parse(text: string): { doc: Document; lines: LineCounterType } {
  yaml ??= createRequire(import.meta.url)('yaml') as YamlModule;
  const lines = new yaml.LineCounter();
  return { doc: yaml.parseDocument(text, { lineCounter: lines, uniqueKeys: false }), lines };
}

/** Keys tandem reads from a settings entry, by their snake_case spelling (kebab-case is read the same). */
const SETTINGS_KEYS = new Set([
  'edit_format', 'weak_model_name', 'weak_model', 'editor_model_name', 'editor_model', 'editor_edit_format', 'use_repo_map',
  'use_temperature', 'reasoning_tag', 'remove_reasoning', 'accepts_settings', 'streaming', 'vision', 'cache_control',
  'system_prompt_prefix', 'reminder', 'extra_params', 'context_window', 'max_output_tokens', 'reasoning',
]);
/** Aider's keys for things tandem does its own way: accepted quietly, so an Aider user's file reads clean. */
const AIDER_UNUSED = new Set(['send_undo_reply', 'lazy', 'overeager', 'examples_as_sys_msg', 'caches_by_default', 'use_system_prompt']);
/** Keys that would send requests elsewhere or with other credentials: tandem has one server, --base-url. */
const REDIRECTING = new Set(['api_base', 'base_url', 'api_key', 'api_version', 'custom_llm_provider']);

export function parseModelSettingsFile(text: string, shown: string): ParsedModelFile {
  const problems: ModelFileProblem[] = [];
  const loaded = loadRoot(text, shown, problems, (node) => yaml!.isSeq(node), 'a list of model entries (- name: ...)');
  if (!loaded) return { entries: [], problems };
  const { root, lines } = loaded;
  const entries: ModelFileEntry[] = [];
  for (const item of root.items) {
    const at = lineOf(item as YamlNode, lines);
    if (!yaml!.isMap(item)) {
      problems.push({ severity: 'warning', message: `${shown}:${at}: an entry must be a mapping with a name; ignored` });
      continue;
    }
    const entry = settingsEntry(item, shown, lines, problems);
    if (entry) entries.push(entry);
  }
  return { entries, problems };
}

function settingsEntry(map: YAMLMap, shown: string, lines: LineCounterType, problems: ModelFileProblem[]): ModelFileEntry | null {
  const at = lineOf(map as unknown as YamlNode, lines);
  const fields: Record<string, unknown> = {};
  const fieldLines: Record<string, number> = {};
  let name: string | null = null;
  for (const pair of map.items) {
    const key = keyOf(pair);
    const line = lineOf(pair.key as YamlNode, lines);
    const value = (pair.value as { toJSON?: () => unknown } | null)?.toJSON?.() ?? null;
    const where = `${shown}:${line}`;
    if (key === 'name') {
      // Aider's entry for every model's extra_params is, here, a glob matching every model.
      if (value === 'aider/extra_params') name = '*';
      else if (typeof value === 'string' && value.trim() !== '') name = value.trim();
      else problems.push({ severity: 'warning', message: `${where}: name must be a model name or a glob` });
      continue;
    }
    if (AIDER_UNUSED.has(key)) continue;
    if (REDIRECTING.has(key)) {
      problems.push({ severity: 'warning', message: `${where}: ${key} ignored; tandem sends every request to --base-url` });
      continue;
    }
    if (!SETTINGS_KEYS.has(key)) {
      problems.push({ severity: 'warning', message: `${where}: unknown key '${rawKeyOf(pair)}' ignored` });
      continue;
    }
    const set = settingsField(key, value, (message) => problems.push({ severity: 'warning', message: `${where}: ${message}` }));
    for (const [field, fieldValue] of Object.entries(set)) {
      fields[field] = fieldValue;
      fieldLines[field] = line;
    }
  }
  if (name === null) {
    problems.push({ severity: 'warning', message: `${shown}:${at}: entry without a name ignored` });
    return null;
  }
  return { entry: { name, ...(fields as ModelFields) }, line: at, lines: fieldLines };
}

type Warn = (message: string) => void;

/** One settings key's value as table fields; a value of the wrong type is a warning and sets nothing. */
function settingsField(key: string, value: unknown, warn: Warn): Record<string, unknown> {
  const expect = (ok: boolean, what: string, field: Record<string, unknown>): Record<string, unknown> => {
    if (ok) return field;
    warn(`${key}: expected ${what}, got ${JSON.stringify(value)}; ignored`);
    return {};
  };
  const text = typeof value === 'string';
  switch (key) {
    case 'edit_format':
      return expect(text && isEditFormat(value as string), 'an edit format', { editFormat: value });
    case 'editor_edit_format': {
      const format = text ? (value as string).replace(/^editor-/, '') : '';
      return expect(isEditFormat(format), 'an edit format', { editorEditFormat: format });
    }
    case 'weak_model_name':
    case 'weak_model':
      return expect(text || value === null, 'a model name', { weakModel: value });
    case 'editor_model_name':
    case 'editor_model':
      return expect(text || value === null, 'a model name', { editorModel: value });
    case 'use_temperature':
      if (typeof value === 'number' && value >= 0) return { acceptsTemperature: true, temperature: value };
      return expect(typeof value === 'boolean', 'true, false or a temperature', { acceptsTemperature: value });
    case 'reasoning_tag':
    case 'remove_reasoning':
      return expect(text || value === null, 'a tag name', { reasoningTag: value });
    case 'accepts_settings':
      return acceptedSettings(value, warn);
    case 'reminder':
      return expect(value === 'user' || value === 'sys' || value === 'system', 'user or sys', { reminder: value === 'user' ? 'user' : 'system' });
    case 'system_prompt_prefix':
      return expect(text || value === null, 'text', { systemPromptPrefix: value });
    case 'extra_params':
      return extraParams(value, warn);
    case 'context_window':
    case 'max_output_tokens':
      return expect(isCount(value), 'a whole number > 0', { [key === 'context_window' ? 'contextWindow' : 'maxOutputTokens']: value });
    default: {
      // use_repo_map, streaming, vision, cache_control, reasoning: booleans
      const field = { use_repo_map: 'useRepoMap', streaming: 'streaming', vision: 'vision', cache_control: 'cacheControl', reasoning: 'reasoning' }[key];
      return field === undefined ? {} : expect(typeof value === 'boolean', 'true or false', { [field]: value });
    }
  }
}

function acceptedSettings(value: unknown, warn: Warn): Record<string, unknown> {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    warn(`accepts_settings: expected a list such as [reasoning_effort, thinking_tokens]; ignored`);
    return {};
  }
  const unknown = value.filter((v) => !(ACCEPTED_SETTINGS as readonly string[]).includes(v));
  if (unknown.length > 0) warn(`accepts_settings: ${unknown.join(', ')} not known to tandem (it knows ${ACCEPTED_SETTINGS.join(', ')})`);
  return { acceptsSettings: value };
}

/** Aider's extra_params: extra_headers, extra_body, and any other field, which goes into the body too. */
function extraParams(value: unknown, warn: Warn): Record<string, unknown> {
  if (!isPlainObject(value)) {
    warn('extra_params: expected a mapping; ignored');
    return {};
  }
  const body: Record<string, unknown> = {};
  let headers: Record<string, string> | undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (REDIRECTING.has(key)) {
      warn(`extra_params.${key} ignored; tandem sends every request to --base-url`);
    } else if (key === 'extra_headers') {
      if (isPlainObject(inner) && Object.values(inner).every((v) => typeof v === 'string')) headers = inner as Record<string, string>;
      else warn('extra_params.extra_headers: expected a mapping of header names to text; ignored');
    } else if (key === 'extra_body') {
      if (isPlainObject(inner)) Object.assign(body, inner);
      else warn('extra_params.extra_body: expected a mapping; ignored');
    } else {
      body[key] = inner;
    }
  }
  return { ...(Object.keys(body).length > 0 ? { extraBody: body } : {}), ...(headers ? { extraHeaders: headers } : {}) };
}

/** LiteLLM's keys tandem reads from a metadata entry; its many other capability and cost keys are skipped quietly. */
const METADATA_KEYS = new Set([
  'max_input_tokens', 'max_tokens', 'max_output_tokens', 'input_cost_per_token', 'output_cost_per_token',
  'cache_read_input_token_cost', 'cache_creation_input_token_cost', 'supports_vision', 'supports_reasoning', 'litellm_provider', 'mode',
]);

function quietMetadataKey(key: string): boolean {
  return key.startsWith('supports_') || key.includes('cost') || key === 'source' || key === 'deprecation_date' || key.startsWith('supported_');
}

export function parseModelMetadataFile(text: string, shown: string): ParsedModelFile {
  const problems: ModelFileProblem[] = [];
  const loaded = loadRoot(text, shown, problems, (node) => yaml!.isMap(node), 'an object of model names to their facts');
  if (!loaded) return { entries: [], problems };
  const { root, lines } = loaded;
  const entries: ModelFileEntry[] = [];
  for (const pair of root.items) {
    const name = rawKeyOf(pair).trim();
    const at = lineOf(pair.key as YamlNode, lines);
    if (!yaml!.isMap(pair.value) || name === '') {
      problems.push({ severity: 'warning', message: `${shown}:${at}: ${JSON.stringify(name)} must name an object of facts; ignored` });
      continue;
    }
    entries.push(metadataEntry(name, at, pair.value, shown, lines, problems));
  }
  return { entries, problems };
}

function metadataEntry(name: string, at: number, map: YAMLMap, shown: string, lines: LineCounterType, problems: ModelFileProblem[]): ModelFileEntry {
  const facts: Record<string, unknown> = {};
  const fieldLines: Record<string, number> = {};
  for (const pair of map.items) {
    const key = rawKeyOf(pair);
    const line = lineOf(pair.key as YamlNode, lines);
    if (!METADATA_KEYS.has(key)) {
      if (!quietMetadataKey(key)) problems.push({ severity: 'warning', message: `${shown}:${line}: unknown key '${key}' ignored` });
      continue;
    }
    const value = (pair.value as { toJSON?: () => unknown } | null)?.toJSON?.() ?? null;
    const numeric = key.startsWith('max_') || key.includes('cost');
    const ok = numeric ? typeof value === 'number' && value >= 0 && (!key.startsWith('max_') || isCount(value)) : key.startsWith('supports_') ? typeof value === 'boolean' : true;
    if (!ok) {
      problems.push({ severity: 'warning', message: `${shown}:${line}: ${key}: unexpected value ${JSON.stringify(value)}; ignored` });
      continue;
    }
    facts[key] = value;
    fieldLines[key] = line;
  }
  return { entry: { name, ...metadataFields(facts) }, line: at, lines: fieldLines };
}

/** LiteLLM's facts as table fields: prices per token become prices per million. */
function metadataFields(facts: Record<string, unknown>): ModelFields {
  const perMillion = (key: string): number | undefined => (typeof facts[key] === 'number' ? (facts[key] as number) * 1_000_000 : undefined);
  const prices = {
    ...(perMillion('input_cost_per_token') !== undefined ? { input: perMillion('input_cost_per_token') } : {}),
    ...(perMillion('output_cost_per_token') !== undefined ? { output: perMillion('output_cost_per_token') } : {}),
    ...(perMillion('cache_read_input_token_cost') !== undefined ? { cachedInput: perMillion('cache_read_input_token_cost') } : {}),
    ...(perMillion('cache_creation_input_token_cost') !== undefined ? { cacheWrite: perMillion('cache_creation_input_token_cost') } : {}),
  };
  const maxOutput = facts['max_output_tokens'] ?? facts['max_tokens'];
  return {
    ...(typeof facts['max_input_tokens'] === 'number' ? { contextWindow: facts['max_input_tokens'] } : {}),
    ...(typeof maxOutput === 'number' ? { maxOutputTokens: maxOutput } : {}),
    ...(Object.keys(prices).length > 0 ? { prices } : {}),
    ...(typeof facts['supports_vision'] === 'boolean' ? { vision: facts['supports_vision'] } : {}),
    ...(typeof facts['supports_reasoning'] === 'boolean' ? { reasoning: facts['supports_reasoning'] } : {}),
  };
}

function loadDocument(text: string, shown: string, problems: ModelFileProblem[]): { doc: Document; lines: LineCounterType } | null {
  const { doc, lines } = parse(text);
  const error = doc.errors[0];
  if (error !== undefined) {
    problems.push({ severity: 'error', message: `${shown}: not valid ${shown.endsWith('.json') ? 'JSON' : 'YAML'}: ${error.message.split('\n')[0]}` });
    return null;
  }
  return { doc, lines };
}

/** The file's top node when it is the shape `isShape` wants (an empty file has none); else a problem. */
function loadRoot<T>(
  text: string,
  shown: string,
  problems: ModelFileProblem[],
  isShape: (node: unknown) => node is T,
  expected: string,
): { root: T; lines: LineCounterType } | null {
  const loaded = loadDocument(text, shown, problems);
  if (!loaded) return null;
  const root = loaded.doc.contents;
  if (root === null) return null;
  if (!isShape(root)) {
    problems.push({ severity: 'error', message: `${shown}: expected ${expected}` });
    return null;
  }
  return { root, lines: loaded.lines };
}

function lineOf(node: YamlNode | null | undefined, lines: LineCounterType): number {
  const offset = node?.range?.[0];
  return offset === undefined ? 0 : lines.linePos(offset).line;
}

function rawKeyOf(pair: Pair): string {
  const key = (pair.key as { value?: unknown } | null)?.value ?? pair.key;
  return String(key);
}

/** `weak-model-name` and `Weak_Model_Name` read as `weak_model_name`. */
function keyOf(pair: Pair): string {
  return rawKeyOf(pair).trim().toLowerCase().replace(/-/g, '_');
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
