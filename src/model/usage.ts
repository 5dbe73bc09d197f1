// Token usage in every shape servers report it, read into one: prompt tokens always include the
// cached and cache-written ones, completion tokens always include the reasoning ones.
import type { Usage } from './types.js';

/** The union of the usage fields seen in the wild; every one may be missing. */
export interface RawUsage {
  readonly prompt_tokens?: number | null;
  readonly completion_tokens?: number | null;
  /** OpenAI, OpenRouter (which adds cache_write_tokens), vLLM, llama-server. */
  readonly prompt_tokens_details?: { readonly cached_tokens?: number | null; readonly cache_write_tokens?: number | null } | null;
  readonly completion_tokens_details?: { readonly reasoning_tokens?: number | null } | null;
  /** DeepSeek. */
  readonly prompt_cache_hit_tokens?: number | null;
  /** Anthropic's names, as relays pass them on (there, input tokens leave the cached ones out). */
  readonly cache_read_input_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
}

export function toUsage(raw: RawUsage): Omit<Usage, 'cost'> {
  const reported = count(raw.prompt_tokens);
  const cachedTokens = count(raw.prompt_tokens_details?.cached_tokens) || count(raw.prompt_cache_hit_tokens) || count(raw.cache_read_input_tokens);
  const cacheWriteTokens = count(raw.prompt_tokens_details?.cache_write_tokens) || count(raw.cache_creation_input_tokens);
  // Anthropic counts cache reads and writes apart from its input tokens; a relay that copies its input
  // count into prompt_tokens gives a prompt smaller than its own cached part. Then the parts are added.
  const promptTokens = reported < cachedTokens + cacheWriteTokens ? reported + cachedTokens + cacheWriteTokens : reported;
  const reasoningTokens = count(raw.completion_tokens_details?.reasoning_tokens);
  // OpenAI counts reasoning inside completion tokens; a server that counts it apart reports more of it.
  const completion = count(raw.completion_tokens);
  const completionTokens = completion < reasoningTokens ? completion + reasoningTokens : completion;
  return {
    promptTokens,
    completionTokens,
    cachedTokens,
    ...(cacheWriteTokens > 0 ? { cacheWriteTokens } : {}),
    ...(reasoningTokens > 0 ? { reasoningTokens } : {}),
  };
}

function count(value: number | null | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
