// Model capabilities (context window, prices, default edit format, weak model, reasoning, temperature
// and cache rules) looked up from the data file model-settings.json with the user's settings and metadata
// files laid over it (later layers win, field by field), and the cost of a request.
import { EDIT_FORMATS, type EditFormat } from './edit-formats.js';
import table from './model-settings.json' with { type: 'json' };

export type DefaultEditFormat = EditFormat;

/** Where the per-request reminder of the format rules goes. */
export type ReminderPlacement = 'system' | 'user';

/** USD per million tokens. */
export interface ModelPrices {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
  /** Price of prompt tokens served from the server's cache; null means "same as input". */
  readonly cachedInputPerMillion: number | null;
  /** Price of prompt tokens written to the cache (Anthropic bills them apart); null means "same as input". */
  readonly cacheWritePerMillion: number | null;
}

export interface ModelSettings {
  /** The name as asked for (what goes into requests). */
  readonly name: string;
  /** The entry of the data file that matched, or null for an unknown model. */
  readonly canonicalName: string | null;
  readonly known: boolean;
  readonly contextWindow: number;
  /** Where the window came from: a user's settings or metadata file, the data file, or the default guess. */
  readonly contextWindowFrom: 'file' | 'table' | 'default';
  readonly prices: ModelPrices | null;
  readonly editFormat: DefaultEditFormat;
  /** Suggested cheaper model for commit messages and summaries, with the caller's provider prefix. */
  readonly weakModel: string | null;
  /** False for models that reject a temperature (OpenAI's reasoning models): none is sent. */
  readonly acceptsTemperature: boolean;
  readonly reminder: ReminderPlacement;
  /** The model thinks before it answers, so it is sent a reasoning effort when the user asks for one. */
  readonly reasoning: boolean;
  /** The provider caches only prompt parts marked with cache_control breakpoints (Anthropic). */
  readonly cacheControl: boolean;
  /** Longest reply the model can write, when known. */
  readonly maxOutputTokens: number | null;
  /** The editor model and its edit format this model suggests for architect mode. */
  readonly editorModel: string | null;
  readonly editorEditFormat: DefaultEditFormat | null;
  /** false: the model gets no repository map. */
  readonly useRepoMap: boolean;
  /** false: replies are never streamed (some servers cannot). */
  readonly streaming: boolean;
  /** The model takes images (image_url parts): true, false, or null when the data does not say. */
  readonly vision: boolean | null;
  /** The temperature to send (a settings file's `use_temperature: 0.6`); null: tandem's rule. */
  readonly temperature: number | null;
  /** The tag the model wraps its thinking in (`think`), when it writes it into the reply. */
  readonly reasoningTag: string | null;
  /** Reasoning controls the model takes: `reasoning_effort`, `thinking_tokens`. */
  readonly acceptsSettings: readonly AcceptedSetting[];
  /** Text put before the system prompt. */
  readonly systemPromptPrefix: string | null;
  /** Fields added to every request body (a user's settings file only). */
  readonly extraBody: Readonly<Record<string, unknown>> | null;
  /** Headers added to every request (a user's settings file only). */
  readonly extraHeaders: Readonly<Record<string, string>> | null;
  /** The settings and metadata files whose entries matched, in the order they were applied. */
  readonly from: readonly string[];
}

/** Reasoning controls a model's settings can say it accepts (Aider's `accepts_settings`). */
export type AcceptedSetting = 'reasoning_effort' | 'thinking_tokens';
export const ACCEPTED_SETTINGS: readonly AcceptedSetting[] = ['reasoning_effort', 'thinking_tokens'];

/** Token counts a cost is computed from (a subset of the model port's Usage). */
export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly cachedTokens: number;
  /** Prompt tokens written to the cache (a part of promptTokens, like cachedTokens). */
  readonly cacheWriteTokens?: number;
}

interface RawPrices {
  readonly input: number;
  readonly output: number;
  readonly cachedInput?: number | null;
  readonly cacheWrite?: number | null;
}

/** The fields an entry of the data file, or of a user's settings or metadata file, may set. */
export interface ModelFields {
  readonly contextWindow?: number;
  readonly prices?: Partial<RawPrices> | null;
  readonly editFormat?: string;
  readonly weakModel?: string | null;
  readonly acceptsTemperature?: boolean;
  readonly reminder?: string;
  readonly reasoning?: boolean;
  readonly cacheControl?: boolean;
  readonly maxOutputTokens?: number | null;
  readonly editorModel?: string | null;
  readonly editorEditFormat?: string | null;
  readonly useRepoMap?: boolean;
  readonly streaming?: boolean;
  readonly vision?: boolean;
  readonly temperature?: number | null;
  readonly reasoningTag?: string | null;
  readonly acceptsSettings?: readonly string[];
  readonly systemPromptPrefix?: string | null;
  readonly extraBody?: Readonly<Record<string, unknown>> | null;
  readonly extraHeaders?: Readonly<Record<string, string>> | null;
}

export interface RawEntry extends ModelFields {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly patterns?: readonly string[];
}

type Defaults = Required<Pick<ModelFields, 'contextWindow' | 'editFormat' | 'weakModel' | 'acceptsTemperature' | 'reminder' | 'reasoning' | 'cacheControl'>> &
  ModelFields & { readonly prices: RawPrices | null };

/** The shape of model-settings.json. */
export interface ModelSettingsTable {
  /** When the prices and windows were checked. */
  readonly date?: string;
  readonly defaults: Defaults;
  readonly models: readonly RawEntry[];
  /** Built-in short names (`sonnet`), resolved after the user's own aliases. */
  readonly shortNames?: Readonly<Record<string, string>>;
}

/** The entries of one user file, in the order they are applied (the home file before the repository's...). */
export interface ModelLayer {
  /** The file, for /models and warnings. */
  readonly file: string;
  /** `name` is an exact model name or a glob (`openrouter/anthropic/*`). */
  readonly entries: readonly RawEntry[];
}

export const BUILTIN_TABLE = table as ModelSettingsTable;

/** Looks a model name up in the built-in data file; unknown names get the defaults. */
export function lookupModelSettings(name: string, layers: readonly ModelLayer[] = []): ModelSettings {
  return lookupIn(BUILTIN_TABLE, name, layers);
}

/** The same lookup over any table shaped like model-settings.json, with user layers laid over it. */
export function lookupIn(data: ModelSettingsTable, name: string, layers: readonly ModelLayer[] = []): ModelSettings {
  const { entry, prefix } = findEntry(data.models, name);
  const base: Record<string, unknown> = { ...data.defaults, ...(entry ? definedFields(entry) : {}) };
  base['prices'] = entry ? entry.prices ?? null : data.defaults.prices;
  // The data file's weak model is a bare name: the caller's provider prefix goes back in front of it.
  if (typeof base['weakModel'] === 'string') base['weakModel'] = prefix + base['weakModel'];
  const merged = overlay(base, name, layers);
  const fields = merged.fields as unknown as Defaults;
  const prices = fields.prices;
  const reasoning = fields.reasoning;
  return {
    name,
    canonicalName: entry?.name ?? merged.matched[0]?.name ?? null,
    known: entry !== undefined || merged.matched.length > 0,
    contextWindow: fields.contextWindow,
    contextWindowFrom: merged.windowFromFile ? 'file' : entry?.contextWindow !== undefined ? 'table' : 'default',
    prices: prices ? toPrices(prices) : null,
    editFormat: toEditFormat(fields.editFormat) ?? 'diff',
    weakModel: fields.weakModel ?? null,
    acceptsTemperature: fields.acceptsTemperature,
    reminder: fields.reminder === 'system' ? 'system' : 'user',
    reasoning,
    cacheControl: fields.cacheControl,
    maxOutputTokens: fields.maxOutputTokens ?? null,
    editorModel: fields.editorModel ?? null,
    editorEditFormat: fields.editorEditFormat ? toEditFormat(fields.editorEditFormat) : null,
    useRepoMap: fields.useRepoMap ?? true,
    streaming: fields.streaming ?? true,
    vision: fields.vision ?? null,
    temperature: fields.temperature ?? null,
    reasoningTag: fields.reasoningTag ?? null,
    acceptsSettings: acceptedOf(fields.acceptsSettings, reasoning),
    systemPromptPrefix: fields.systemPromptPrefix ?? null,
    extraBody: fields.extraBody ?? null,
    extraHeaders: fields.extraHeaders ?? null,
    from: merged.matched.map((m) => m.file),
  };
}

/** Each layer's best entry for `name` laid over the fields so far; prices merge key by key. */
interface Overlaid {
  readonly fields: Record<string, unknown>;
  readonly matched: { name: string; file: string }[];
  readonly windowFromFile: boolean;
}

function overlay(base: Record<string, unknown>, name: string, layers: readonly ModelLayer[]): Overlaid {
  const fields = { ...base };
  const matched: { name: string; file: string }[] = [];
  let windowFromFile = false;
  for (const layer of layers) {
    const entries = matchingEntries(layer.entries, name);
    if (entries.length === 0) continue;
    matched.push({ name: entries[entries.length - 1]!.name, file: layer.file });
    for (const entry of entries) apply(entry);
  }
  return { fields, matched, windowFromFile };

  function apply(entry: RawEntry): void {
    windowFromFile ||= entry.contextWindow !== undefined;
    const { prices, ...rest } = definedFields(entry);
    Object.assign(fields, rest);
    if (prices === null) fields['prices'] = null;
    else if (prices !== undefined) fields['prices'] = { input: 0, output: 0, ...(fields['prices'] as RawPrices | null), ...prices };
  }
}

/**
 * Every entry of one file that names the model, least specific first so the most specific wins: globs by
 * their literal characters, then the exact name. A provider prefix is tried with and without, as in the table.
 */
function matchingEntries(entries: readonly RawEntry[], name: string): RawEntry[] {
  const segments = name.trim().toLowerCase().split('/');
  const candidates = segments.map((_, i) => segments.slice(i).join('/'));
  const scored: { entry: RawEntry; score: number }[] = [];
  for (const entry of entries) {
    const pattern = entry.name.toLowerCase();
    const exact = !pattern.includes('*') && candidates.includes(pattern);
    const glob = pattern.includes('*') && candidates.some((c) => globMatches(pattern, c));
    if (exact) scored.push({ entry, score: Number.MAX_SAFE_INTEGER - candidates.indexOf(pattern) });
    else if (glob) scored.push({ entry, score: pattern.replaceAll('*', '').length });
  }
  return scored.sort((a, b) => a.score - b.score).map((s) => s.entry);
}

function definedFields(entry: RawEntry): ModelFields {
  const { name: _name, aliases: _aliases, patterns: _patterns, ...fields } = entry;
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as ModelFields;
}

/** What the entry says it accepts; without a list, a reasoning model takes a reasoning effort. */
function acceptedOf(listed: readonly string[] | undefined, reasoning: boolean): AcceptedSetting[] {
  if (listed === undefined) return reasoning ? ['reasoning_effort'] : [];
  return ACCEPTED_SETTINGS.filter((s) => listed.includes(s));
}

/** The user's alias first, then the data file's short names; anything else is a model name already. */
export function resolveModelAlias(name: string, aliases: ReadonlyMap<string, string>): string {
  return aliases.get(name) ?? BUILTIN_TABLE.shortNames?.[name] ?? name;
}

/** USD for one request, or null when the model's prices are unknown. */
export function costWithPrices(usage: TokenUsage, prices: ModelPrices | null): number | null {
  if (!prices) return null;
  // Servers report cached tokens as a part of the prompt tokens, never on top of them.
  const cached = Math.min(usage.cachedTokens, usage.promptTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.promptTokens - cached);
  const cachedPrice = prices.cachedInputPerMillion ?? prices.inputPerMillion;
  const writePrice = prices.cacheWritePerMillion ?? prices.inputPerMillion;
  const dollars =
    (usage.promptTokens - cached - written) * prices.inputPerMillion +
    cached * cachedPrice +
    written * writePrice +
    usage.completionTokens * prices.outputPerMillion;
  return dollars / 1_000_000;
}

function toPrices(raw: RawPrices): ModelPrices {
  // Prices given per token (a metadata file) arrive here as per-million values with float noise.
  const clean = (n: number): number => Number(n.toPrecision(12));
  return {
    inputPerMillion: clean(raw.input),
    outputPerMillion: clean(raw.output),
    cachedInputPerMillion: raw.cachedInput == null ? null : clean(raw.cachedInput),
    cacheWritePerMillion: raw.cacheWrite == null ? null : clean(raw.cacheWrite),
  };
}

function toEditFormat(value: string): DefaultEditFormat | null {
  return (EDIT_FORMATS as readonly string[]).includes(value) ? (value as DefaultEditFormat) : null;
}

/** Whether `text` is one of the edit formats a model can be told to use. */
export function isEditFormat(text: string): text is DefaultEditFormat {
  return toEditFormat(text) !== null;
}

/**
 * Tries the whole name, then with each leading provider segment removed
 * ("openrouter/anthropic/claude-sonnet-4" -> "anthropic/claude-sonnet-4" -> "claude-sonnet-4").
 * The removed part is the prefix put back in front of the weak model.
 */
function findEntry(models: readonly RawEntry[], name: string): { entry: RawEntry | undefined; prefix: string } {
  const lower = name.trim().toLowerCase();
  const segments = lower.split('/');
  for (let i = 0; i < segments.length; i++) {
    const candidate = segments.slice(i).join('/');
    const entry = matchExact(models, candidate) ?? matchPattern(models, candidate);
    if (entry) return { entry, prefix: name.trim().split('/').slice(0, i).map((s) => s + '/').join('') };
  }
  return { entry: undefined, prefix: '' };
}

function matchExact(models: readonly RawEntry[], candidate: string): RawEntry | undefined {
  return models.find(
    (m) => m.name.toLowerCase() === candidate || (m.aliases ?? []).some((a) => a.toLowerCase() === candidate),
  );
}

/** The most specific pattern wins: the one with the most literal characters. */
function matchPattern(models: readonly RawEntry[], candidate: string): RawEntry | undefined {
  let best: { entry: RawEntry; score: number } | undefined;
  for (const entry of models) {
    for (const pattern of entry.patterns ?? []) {
      if (!globMatches(pattern.toLowerCase(), candidate)) continue;
      const score = pattern.replaceAll('*', '').length;
      if (!best || score > best.score) best = { entry, score };
    }
  }
  return best?.entry;
}

export function globMatches(pattern: string, text: string): boolean {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`).test(text);
}
