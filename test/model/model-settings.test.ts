import { describe, expect, it } from 'vitest';
import table from '../../src/model/model-settings.json' with { type: 'json' };
import { BUILTIN_TABLE, costWithPrices, lookupIn, lookupModelSettings, resolveModelAlias } from '../../src/model/model-settings.js';

describe('lookupModelSettings', () => {
  it('knows the common models', () => {
    for (const name of ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'o3', 'o4-mini', 'gpt-5', 'deepseek-chat', 'gemini-2.5-pro']) {
      const settings = lookupModelSettings(name);
      expect(settings.known, name).toBe(true);
      expect(settings.prices, name).not.toBeNull();
      expect(settings.contextWindow, name).toBeGreaterThanOrEqual(64_000);
    }
    expect(lookupModelSettings('gpt-4o')).toMatchObject({ canonicalName: 'gpt-4o', contextWindow: 128000, editFormat: 'diff', weakModel: 'gpt-4o-mini' });
    expect(lookupModelSettings('o3').acceptsTemperature).toBe(false);
  });

  it('matches dated names, tags and the most specific pattern', () => {
    expect(lookupModelSettings('gpt-4o-2024-08-06').canonicalName).toBe('gpt-4o');
    expect(lookupModelSettings('gpt-4o-mini-2024-07-18').canonicalName).toBe('gpt-4o-mini');
    expect(lookupModelSettings('GPT-4.1-MINI').canonicalName).toBe('gpt-4.1-mini');
    expect(lookupModelSettings('gpt-5.1').canonicalName).toBe('gpt-5');
    expect(lookupModelSettings('gpt-5.1-mini').canonicalName).toBe('gpt-5-mini');
    expect(lookupModelSettings('qwen2.5-coder:32b').canonicalName).toBe('qwen2.5-coder');
    expect(lookupModelSettings('llama3.1:8b').canonicalName).toBe('llama-3');
  });

  it('strips provider prefixes and puts them back on the weak model', () => {
    expect(lookupModelSettings('anthropic/claude-sonnet-4')).toMatchObject({
      name: 'anthropic/claude-sonnet-4',
      canonicalName: 'claude-sonnet-4',
      weakModel: 'anthropic/claude-3.5-haiku',
    });
    expect(lookupModelSettings('openrouter/openai/gpt-4o').weakModel).toBe('openrouter/openai/gpt-4o-mini');
    expect(lookupModelSettings('deepseek/deepseek-r1').canonicalName).toBe('deepseek-reasoner');
    expect(lookupModelSettings('google/gemini-2.5-pro-preview').editFormat).toBe('diff-fenced');
  });

  it('gives unknown models sensible defaults', () => {
    expect(lookupModelSettings('my-local-finetune')).toEqual({
      name: 'my-local-finetune',
      canonicalName: null,
      known: false,
      contextWindow: 32768,
      prices: null,
      editFormat: 'diff',
      weakModel: null,
      acceptsTemperature: true,
      reminder: 'user',
      reasoning: false,
      cacheControl: false,
      contextWindowFrom: 'default',
      maxOutputTokens: null,
      editorModel: null,
      editorEditFormat: null,
      useRepoMap: true,
      streaming: true,
      vision: null,
      temperature: null,
      reasoningTag: null,
      acceptsSettings: [],
      systemPromptPrefix: null,
      extraBody: null,
      extraHeaders: null,
      from: [],
    });
  });

  it('keeps the table as dated data, with the families people use most and short names that resolve to entries', () => {
    expect(BUILTIN_TABLE.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const name of ['gpt-4o', 'claude-sonnet-4', 'gemini-2.5-pro', 'deepseek-chat', 'qwen3-coder', 'llama-4', 'mistral-large-latest', 'codestral-2501']) {
      expect(lookupModelSettings(name).known, name).toBe(true);
    }
    for (const [short, model] of Object.entries(BUILTIN_TABLE.shortNames ?? {})) {
      expect(resolveModelAlias(short, new Map()), short).toBe(model);
      expect(lookupModelSettings(model).known, model).toBe(true);
    }
    expect(resolveModelAlias('sonnet', new Map([['sonnet', 'openrouter/anthropic/claude-sonnet-4']]))).toBe('openrouter/anthropic/claude-sonnet-4');
    expect(lookupModelSettings('claude-sonnet-4').acceptsSettings).toEqual(['reasoning_effort', 'thinking_tokens']);
  });

  it('says which models take images, and knows nothing of the others', () => {
    for (const name of ['gpt-4o', 'claude-sonnet-4', 'openrouter/google/gemini-2.5-pro']) expect(lookupModelSettings(name).vision, name).toBe(true);
    for (const name of ['deepseek-chat', 'qwen2.5-coder:14b']) expect(lookupModelSettings(name).vision, name).toBe(false);
    expect(lookupModelSettings('my-local-finetune').vision).toBeNull();
  });

  it('marks which models reason, which reject a temperature and which need cache_control', () => {
    for (const name of ['o3', 'gpt-5', 'deepseek-reasoner', 'deepseek/deepseek-r1', 'qwen3:32b', 'qwq-32b', 'openai/gpt-oss-120b']) {
      expect(lookupModelSettings(name).reasoning, name).toBe(true);
    }
    for (const name of ['gpt-4o', 'deepseek-chat', 'qwen3-coder:30b', 'my-local-finetune']) expect(lookupModelSettings(name).reasoning, name).toBe(false);
    expect(lookupModelSettings('gpt-5-mini').acceptsTemperature).toBe(false);
    expect(lookupModelSettings('openrouter/anthropic/claude-sonnet-4').cacheControl).toBe(true);
    expect(lookupModelSettings('gpt-4o').cacheControl).toBe(false);
  });

  it('has no field in the data file that nothing reads', () => {
    const data = table as { defaults: Record<string, unknown>; models: Array<Record<string, unknown>> };
    const read = new Set(Object.keys(lookupModelSettings('gpt-4o')).concat(['name', 'aliases', 'patterns']));
    const fields = new Set([...Object.keys(data.defaults), ...data.models.flatMap((m) => Object.keys(m))]);
    expect([...fields].filter((f) => !read.has(f))).toEqual([]);
  });

  it('looks up any table of the same shape', () => {
    const table = {
      defaults: { contextWindow: 1000, prices: null, editFormat: 'whole', weakModel: null, acceptsTemperature: true, reminder: 'user', reasoning: false, cacheControl: false },
      models: [{ name: 'tiny', patterns: ['tiny-*'], contextWindow: 2000, editFormat: 'bogus' }],
    };
    expect(lookupIn(table, 'tiny-v2')).toMatchObject({ canonicalName: 'tiny', contextWindow: 2000, editFormat: 'diff' });
    expect(lookupIn(table, 'other')).toMatchObject({ known: false, editFormat: 'whole' });
  });
});

describe('costWithPrices', () => {
  const gpt4o = lookupModelSettings('gpt-4o');

  it('prices prompt, cached and completion tokens', () => {
    expect(costWithPrices({ promptTokens: 1_000_000, completionTokens: 0, cachedTokens: 0 }, gpt4o.prices)).toBeCloseTo(2.5);
    expect(costWithPrices({ promptTokens: 0, completionTokens: 1_000_000, cachedTokens: 0 }, gpt4o.prices)).toBeCloseTo(10);
    expect(costWithPrices({ promptTokens: 1_000_000, completionTokens: 0, cachedTokens: 1_000_000 }, gpt4o.prices)).toBeCloseTo(1.25);
    expect(costWithPrices({ promptTokens: 2000, completionTokens: 500, cachedTokens: 1000 }, gpt4o.prices)).toBeCloseTo(0.0025 + 0.00125 + 0.005);
  });

  it('charges cached tokens at the input price when no cached price is known', () => {
    const prices = { inputPerMillion: 1, outputPerMillion: 2, cachedInputPerMillion: null, cacheWritePerMillion: null };
    expect(costWithPrices({ promptTokens: 1_000_000, completionTokens: 0, cachedTokens: 500_000 }, prices)).toBeCloseTo(1);
  });

  it('charges cache writes at their own price, cache reads at the cached price (Anthropic models)', () => {
    const sonnet = lookupModelSettings('anthropic/claude-sonnet-4');
    expect(sonnet.prices).toMatchObject({ inputPerMillion: 3, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75 });
    const usage = { promptTokens: 3_000_000, completionTokens: 0, cachedTokens: 1_000_000, cacheWriteTokens: 1_000_000 };
    expect(costWithPrices(usage, sonnet.prices)).toBeCloseTo(3 + 0.3 + 3.75);
  });

  it('is null when prices are unknown', () => {
    expect(costWithPrices({ promptTokens: 10, completionTokens: 10, cachedTokens: 0 }, lookupModelSettings('mystery').prices)).toBeNull();
  });
});
