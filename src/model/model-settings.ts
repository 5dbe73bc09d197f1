// Model capabilities (context window, prices, default edit format, weak model, reasoning, temperature
// and cache rules) looked up from the data file model-settings.json, and the cost of a request.
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
  /** The model takes images (image_url parts): true, false, or null when the data does not say. */
  readonly vision: boolean | null;
}

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

interface RawEntry {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly patterns?: readonly string[];
  readonly contextWindow?: number;
  readonly prices?: RawPrices | null;
  readonly editFormat?: string;
  readonly weakModel?: string | null;
  readonly acceptsTemperature?: boolean;
  readonly reminder?: string;
  readonly reasoning?: boolean;
  readonly cacheControl?: boolean;
  readonly vision?: boolean;
}

/** The shape of model-settings.json. */
export interface ModelSettingsTable {
  readonly defaults: Omit<Required<RawEntry>, 'name' | 'aliases' | 'patterns' | 'vision'>;
  readonly models: readonly RawEntry[];
}

/** Looks a model name up in the built-in data file; unknown names get the defaults. */
export function lookupModelSettings(name: string): ModelSettings {
  return lookupIn(table as ModelSettingsTable, name);
}

/** The same lookup over any table shaped like model-settings.json (tests, user overrides). */
export function lookupIn(data: ModelSettingsTable, name: string): ModelSettings {
  const { entry, prefix } = findEntry(data.models, name);
  const pick = <K extends keyof ModelSettingsTable['defaults']>(key: K): ModelSettingsTable['defaults'][K] =>
    (entry?.[key] ?? data.defaults[key]) as ModelSettingsTable['defaults'][K];
  const prices = entry ? entry.prices ?? null : data.defaults.prices;
  const weak = pick('weakModel');
  return {
    name,
    canonicalName: entry?.name ?? null,
    known: entry !== undefined,
    contextWindow: pick('contextWindow'),
    prices: prices ? toPrices(prices) : null,
    editFormat: toEditFormat(pick('editFormat')),
    weakModel: weak ? prefix + weak : null,
    acceptsTemperature: pick('acceptsTemperature'),
    reminder: pick('reminder') === 'system' ? 'system' : 'user',
    reasoning: pick('reasoning'),
    cacheControl: pick('cacheControl'),
    vision: entry?.vision ?? null,
  };
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
  return {
    inputPerMillion: raw.input,
    outputPerMillion: raw.output,
    cachedInputPerMillion: raw.cachedInput ?? null,
    cacheWritePerMillion: raw.cacheWrite ?? null,
  };
}

function toEditFormat(value: string): DefaultEditFormat {
  return (EDIT_FORMATS as readonly string[]).includes(value) ? (value as DefaultEditFormat) : 'diff';
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

function globMatches(pattern: string, text: string): boolean {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`).test(text);
}
