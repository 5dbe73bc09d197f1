import { describe, expect, it } from 'vitest';
import { costWithPrices, lookupModelSettings } from '../../src/model/model-settings.js';
import { toUsage } from '../../src/model/usage.js';

describe('toUsage', () => {
  it('reads OpenAI cached tokens and reasoning tokens, both inside their totals', () => {
    expect(
      toUsage({ prompt_tokens: 1000, completion_tokens: 300, prompt_tokens_details: { cached_tokens: 600 }, completion_tokens_details: { reasoning_tokens: 200 } }),
    ).toEqual({ promptTokens: 1000, completionTokens: 300, cachedTokens: 600, reasoningTokens: 200 });
  });

  it("reads DeepSeek's prompt_cache_hit_tokens", () => {
    expect(toUsage({ prompt_tokens: 900, completion_tokens: 10, prompt_cache_hit_tokens: 800, prompt_cache_miss_tokens: 100 } as never)).toEqual({
      promptTokens: 900,
      completionTokens: 10,
      cachedTokens: 800,
    });
  });

  it("reads OpenRouter's cache writes next to its cache reads", () => {
    expect(toUsage({ prompt_tokens: 5000, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 3000, cache_write_tokens: 1500 } })).toEqual({
      promptTokens: 5000,
      completionTokens: 50,
      cachedTokens: 3000,
      cacheWriteTokens: 1500,
    });
  });

  it('reads Anthropic-style cache fields, adding them when the input count leaves them out', () => {
    // Anthropic's own accounting: input tokens exclude what was read from or written to the cache.
    expect(toUsage({ prompt_tokens: 20, completion_tokens: 5, cache_read_input_tokens: 4000, cache_creation_input_tokens: 1000 })).toEqual({
      promptTokens: 5020,
      completionTokens: 5,
      cachedTokens: 4000,
      cacheWriteTokens: 1000,
    });
    // A relay that already counts them in prompt_tokens.
    expect(toUsage({ prompt_tokens: 5020, completion_tokens: 5, cache_read_input_tokens: 4000, cache_creation_input_tokens: 1000 })).toMatchObject({
      promptTokens: 5020,
      cachedTokens: 4000,
    });
  });

  it('adds reasoning tokens a server counts apart from its completion tokens', () => {
    expect(toUsage({ prompt_tokens: 10, completion_tokens: 40, completion_tokens_details: { reasoning_tokens: 900 } })).toMatchObject({ completionTokens: 940, reasoningTokens: 900 });
  });

  it('treats missing, null and nonsense counts as zero', () => {
    expect(toUsage({ prompt_tokens: null, completion_tokens: -3, prompt_tokens_details: null })).toEqual({ promptTokens: 0, completionTokens: 0, cachedTokens: 0 });
  });

  it('prices each shape at the cached price from the model settings', () => {
    const deepseek = lookupModelSettings('deepseek-chat').prices;
    const usage = toUsage({ prompt_tokens: 1_000_000, completion_tokens: 0, prompt_cache_hit_tokens: 1_000_000 } as never);
    expect(costWithPrices(usage, deepseek)).toBeCloseTo(0.07);
    const sonnet = lookupModelSettings('anthropic/claude-sonnet-4').prices;
    const relayed = toUsage({ prompt_tokens: 0, completion_tokens: 0, cache_read_input_tokens: 1_000_000, cache_creation_input_tokens: 1_000_000 });
    expect(costWithPrices(relayed, sonnet)).toBeCloseTo(0.3 + 3.75);
  });
});
