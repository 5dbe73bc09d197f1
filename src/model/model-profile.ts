// A model's profile: everything tandem does differently per model, built in one place from the data in
// model-settings.json and the user's overrides. Switching a model swaps its whole profile.
import {
  lookupModelSettings,
  resolveModelAlias,
  type AcceptedSetting,
  type DefaultEditFormat,
  type ModelLayer,
  type ModelPrices,
  type ModelSettings,
  type ReminderPlacement,
} from './model-settings.js';
import { isLocalServer, isRouter, type ReasoningEffort, type RequestRules } from './request-body.js';
import type { TokenCounter } from '../platform/token-counter.js';

/** The reasoning the user asked for (flags, then /reasoning-effort and /think-tokens in the chat). */
export interface ReasoningChoice {
  readonly effort: ReasoningEffort | null;
  /** A thinking budget; 0 or null: none. */
  readonly thinkingTokens: number | null;
}

export interface ModelProfile {
  /** The model's real name (an alias resolved). */
  readonly name: string;
  /** The alias it was asked for by, when it was. */
  readonly alias: string | null;
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
  readonly tokens: TokenCounter;
}

export interface ProfileOptions {
  readonly baseURL: string;
  /** The process's tokenizer pool (or anything handing out counters). */
  readonly tokenizers: { counterFor(model: string): TokenCounter };
  /** The user's --context-window: it holds for `startModel` and for every model tandem does not know. */
  readonly contextWindow?: number | null;
  readonly startModel?: string;
  readonly reasoningEffort?: ReasoningEffort | null;
  readonly thinkingTokens?: number | null;
  /** false (--no-check-model-accepts-settings): reasoning controls go to every model. */
  readonly checkAcceptsSettings?: boolean;
  /** The user's settings and metadata files, in the order they apply. */
  readonly layers?: readonly ModelLayer[];
  /** --alias NAME:MODEL and the config's alias list. */
  readonly aliases?: ReadonlyMap<string, string>;
  /** Context windows the server reported, by model name. */
  readonly serverWindows?: ReadonlyMap<string, number>;
}

export type ProfileBuilder = (name: string) => ModelProfile;

export function buildModelProfile(asked: string, options: ProfileOptions): ModelProfile {
  const aliases = options.aliases ?? new Map<string, string>();
  const name = resolveModelAlias(asked, aliases);
  const settings = lookupModelSettings(name, options.layers ?? []);
  const window = options.contextWindow ?? null;
  const startModel = options.startModel === undefined ? undefined : resolveModelAlias(options.startModel, aliases);
  const contextWindow =
    window !== null && (name === startModel || !settings.known) ? window : (serverWindow(settings, options) ?? settings.contextWindow);
  return {
    name,
    alias: name === asked ? null : asked,
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

/** What the server said, unless the user's own files name the window: the server knows what it serves. */
function serverWindow(settings: ModelSettings, options: ProfileOptions): number | null {
  if (settings.contextWindowFrom === 'file') return null;
  return options.serverWindows?.get(settings.name) ?? null;
}

/** History budget when none is set: a sixteenth of the window, between 1k and 8k tokens. */
function defaultHistoryBudget(contextWindow: number): number {
  return Math.min(Math.max(Math.floor(contextWindow / 16), 1024), 8192);
}

type RuleOptions = Pick<ProfileOptions, 'baseURL' | 'reasoningEffort' | 'thinkingTokens' | 'checkAcceptsSettings'>;

/**
 * Temperature 0 (steady edits) for models that take one, except reasoning models, whose makers
 * recommend their own default; a settings file's own temperature wins. A reasoning effort and a thinking
 * budget go only to models whose settings accept them (and to models tandem does not know: the user asked
 * for it), in the form the server takes; extra body fields and headers come from the user's settings file.
 */
export function requestRules(settings: ModelSettings, options: RuleOptions): RequestRules {
  const choice = { effort: options.reasoningEffort ?? null, thinkingTokens: options.thinkingTokens ?? null };
  const sent = reasoningToSend(settings, choice, options.checkAcceptsSettings ?? true);
  const temperature = settings.temperature ?? (settings.acceptsTemperature && !settings.reasoning ? 0 : undefined);
  return {
    ...(temperature !== undefined && settings.acceptsTemperature ? { temperature } : {}),
    ...(sent.effort ? { reasoningEffort: sent.effort } : {}),
    ...(sent.thinkingTokens ? { thinkingTokens: sent.thinkingTokens } : {}),
    ...((sent.effort || sent.thinkingTokens) && isRouter(options.baseURL, settings.name) ? { reasoningForm: 'router' as const } : {}),
    cacheControl: settings.cacheControl,
    cachePrompt: isLocalServer(options.baseURL) && settings.prices === null,
    ...(settings.extraBody ? { extraBody: settings.extraBody } : {}),
    ...(settings.extraHeaders ? { extraHeaders: settings.extraHeaders } : {}),
    ...(settings.reasoningTag ? { reasoningTag: settings.reasoningTag } : {}),
  };
}

/** The part of the user's reasoning choice the model takes. */
export function reasoningToSend(settings: ModelSettings, choice: ReasoningChoice, check: boolean): ReasoningChoice {
  const takes = (setting: AcceptedSetting): boolean => !check || !settings.known || settings.acceptsSettings.includes(setting);
  const budget = choice.thinkingTokens !== null && choice.thinkingTokens > 0 ? choice.thinkingTokens : null;
  return {
    effort: choice.effort !== null && takes('reasoning_effort') ? choice.effort : null,
    thinkingTokens: budget !== null && takes('thinking_tokens') ? budget : null,
  };
}

/** One line saying what of the user's reasoning choice this model does not take (and so is not sent), or null. */
export function reasoningNotice(settings: ModelSettings, choice: ReasoningChoice, check: boolean): string | null {
  const sent = reasoningToSend(settings, choice, check);
  const left: string[] = [];
  if (choice.effort !== null && sent.effort === null) left.push(`reasoning effort ${choice.effort}`);
  if (choice.thinkingTokens && sent.thinkingTokens === null) left.push(`a thinking budget of ${choice.thinkingTokens} tokens`);
  if (left.length === 0) return null;
  return `${settings.name} does not accept ${left.join(' or ')} (its model settings say so), so none is sent; --no-check-model-accepts-settings sends it anyway.`;
}
