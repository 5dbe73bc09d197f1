// A model's profile: everything tandem does differently per model, built in one place from the data in
// model-settings.json and the user's overrides. Switching a model swaps its whole profile.
import {
  lookupModelSettings,
  type DefaultEditFormat,
  type ModelPrices,
  type ModelSettings,
  type ReminderPlacement,
} from './model-settings.js';
import { isLocalServer, type ReasoningEffort, type RequestRules } from './request-body.js';

export interface ModelProfile {
  readonly name: string;
  /** The data file's entry (or its defaults, for a model tandem does not know). */
  readonly settings: ModelSettings;
  readonly contextWindow: number;
  /** History above this many tokens is summarized, unless the user set a budget. */
  readonly historyTokens: number;
  readonly prices: ModelPrices | null;
  readonly editFormat: DefaultEditFormat;
  readonly reminder: ReminderPlacement;
  /** The data's suggestion for commit messages and summaries, with the provider prefix. */
  readonly weakModel: string | null;
  /** What each request to this model carries besides the messages. */
  readonly request: RequestRules;
  /** Counts tokens with the model's own tokenizer (loaded on first use). */
  readonly tokens: { count(text: string): number };
}

export interface ProfileOptions {
  readonly baseURL: string;
  /** The process's tokenizer pool (or anything handing out counters). */
  readonly tokenizers: { counterFor(model: string): { count(text: string): number } };
  /** The user's --context-window: it holds for `startModel` and for every model tandem does not know. */
  readonly contextWindow?: number | null;
  readonly startModel?: string;
  readonly reasoningEffort?: ReasoningEffort | null;
}

export type ProfileBuilder = (name: string) => ModelProfile;

export function buildModelProfile(name: string, options: ProfileOptions): ModelProfile {
  const settings = lookupModelSettings(name);
  const window = options.contextWindow ?? null;
  const contextWindow = window !== null && (name === options.startModel || !settings.known) ? window : settings.contextWindow;
  return {
    name,
    settings,
    contextWindow,
    historyTokens: defaultHistoryBudget(contextWindow),
    prices: settings.prices,
    editFormat: settings.editFormat,
    reminder: settings.reminder,
    weakModel: settings.weakModel,
    request: requestRules(settings, options),
    tokens: options.tokenizers.counterFor(name),
  };
}

/** One builder for the process: a model's profile is built once, whoever asks for it. */
export function createProfileBuilder(options: ProfileOptions): ProfileBuilder {
  const built = new Map<string, ModelProfile>();
  return (name) => {
    let profile = built.get(name);
    if (!profile) {
      profile = buildModelProfile(name, options);
      built.set(name, profile);
    }
    return profile;
  };
}

/** History budget when none is set: a sixteenth of the window, between 1k and 8k tokens. */
function defaultHistoryBudget(contextWindow: number): number {
  return Math.min(Math.max(Math.floor(contextWindow / 16), 1024), 8192);
}

/**
 * Temperature 0 (steady edits) for models that take one, except reasoning models, whose makers
 * recommend their own default. A reasoning effort goes to models marked as reasoning and to models tandem
 * does not know (the user asked for it); a known model that does not reason would reject it.
 */
export function requestRules(settings: ModelSettings, options: Pick<ProfileOptions, 'baseURL' | 'reasoningEffort'>): RequestRules {
  const effort = options.reasoningEffort ?? undefined;
  return {
    ...(settings.acceptsTemperature && !settings.reasoning ? { temperature: 0 } : {}),
    ...(effort && (settings.reasoning || !settings.known) ? { reasoningEffort: effort } : {}),
    cacheControl: settings.cacheControl,
    cachePrompt: isLocalServer(options.baseURL) && settings.prices === null,
  };
}
