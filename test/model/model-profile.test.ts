import { describe, expect, it } from 'vitest';
import { buildModelProfile, createProfileBuilder } from '../../src/model/model-profile.js';
import { cacheBreakpoints, isLocalServer, requestBody } from '../../src/model/request-body.js';
import { approxTokens } from '../support/fake-ports.js';
import type { ChatMessage } from '../../src/model/types.js';

const tokenizers = { counterFor: () => approxTokens };
const OPENAI = 'https://api.openai.com/v1';
const OPENROUTER = 'https://openrouter.ai/api/v1';
const LLAMA = 'http://127.0.0.1:8080/v1';

const messages: ChatMessage[] = [
  { role: 'system', content: 'rules' },
  { role: 'user', content: 'files' },
  { role: 'assistant', content: 'ok' },
  { role: 'user', content: 'request' },
];

describe('buildModelProfile', () => {
  it('builds every per-model rule from the model settings', () => {
    const profile = buildModelProfile('anthropic/claude-sonnet-4', { baseURL: OPENROUTER, tokenizers });
    expect(profile).toMatchObject({ contextWindow: 200000, editFormat: 'diff', reminder: 'user', weakModel: 'anthropic/claude-3.5-haiku' });
    expect(profile.prices?.cachedInputPerMillion).toBe(0.3);
    expect(profile.request).toEqual({ cacheControl: true, cachePrompt: false });
    expect(buildModelProfile('gpt-4o', { baseURL: OPENAI, tokenizers }).request).toEqual({ temperature: 0, cacheControl: false, cachePrompt: false });
    expect(buildModelProfile('gpt-4o', { baseURL: OPENAI, tokenizers }).reminder).toBe('system');
  });

  it('holds --context-window for the start model and for unknown models only', () => {
    const options = { baseURL: LLAMA, tokenizers, contextWindow: 9000, startModel: 'gpt-4o' };
    expect(buildModelProfile('gpt-4o', options).contextWindow).toBe(9000);
    expect(buildModelProfile('gpt-4.1', options).contextWindow).toBe(1047576);
    expect(buildModelProfile('my-local-model', options).contextWindow).toBe(9000);
    expect(buildModelProfile('my-local-model', { baseURL: LLAMA, tokenizers }).historyTokens).toBe(2048);
  });

  it('sends the reasoning effort to reasoning models and unknown ones, never to a known model that does not reason', () => {
    const options = { baseURL: OPENAI, tokenizers, reasoningEffort: 'high' as const };
    expect(buildModelProfile('o3', options).request).toEqual({ reasoningEffort: 'high', cacheControl: false, cachePrompt: false });
    expect(buildModelProfile('gpt-4o', options).request.reasoningEffort).toBeUndefined();
    expect(buildModelProfile('my-model', { ...options, baseURL: LLAMA }).request).toEqual({ temperature: 0, reasoningEffort: 'high', cacheControl: false, cachePrompt: true });
    expect(buildModelProfile('qwen3:32b', { ...options, baseURL: LLAMA }).request).toEqual({ reasoningEffort: 'high', cacheControl: false, cachePrompt: true });
  });

  it('builds each model once', () => {
    const profileOf = createProfileBuilder({ baseURL: OPENAI, tokenizers });
    expect(profileOf('gpt-4o')).toBe(profileOf('gpt-4o'));
  });
});

describe('prompt-cache hints reach only the servers they are for', () => {
  const bodyFor = (model: string, baseURL: string) => requestBody({ model, messages, stream: true }, buildModelProfile(model, { baseURL, tokenizers }).request);

  it('marks the stable prefix and the history end with cache_control for Anthropic models behind OpenRouter', () => {
    const body = bodyFor('anthropic/claude-sonnet-4', OPENROUTER);
    expect(body.messages[0]).toEqual({ role: 'system', content: [{ type: 'text', text: 'rules', cache_control: { type: 'ephemeral' } }] });
    expect(body.messages[3]).toEqual({ role: 'user', content: [{ type: 'text', text: 'request', cache_control: { type: 'ephemeral' } }] });
    expect(body.messages[1]).toEqual({ role: 'user', content: 'files' });
    expect(body).not.toHaveProperty('cache_prompt');
  });

  it('sends cache_prompt to a local server running an unpriced model, and nothing else', () => {
    const local = bodyFor('qwen2.5-coder', LLAMA);
    expect(local.cache_prompt).toBe(true);
    expect(JSON.stringify(local)).not.toContain('cache_control');
    for (const [model, url] of [['gpt-4o', OPENAI], ['deepseek-chat', 'https://api.deepseek.com/v1'], ['qwen2.5-coder', OPENROUTER], ['gpt-4o', 'http://localhost:4000/v1']]) {
      const body = bodyFor(model!, url!);
      expect(body, `${model} at ${url}`).not.toHaveProperty('cache_prompt');
      expect(JSON.stringify(body), `${model} at ${url}`).not.toContain('cache_control');
    }
  });

  it('tells local and private-network servers from hosted ones', () => {
    for (const url of ['http://127.0.0.1:8080/v1', 'http://localhost:11434/v1', 'http://[::1]:8000/v1', 'http://192.168.1.20:8080/v1', 'http://10.0.0.5/v1', 'http://172.20.0.2:8000/v1', 'http://gpu-box.local:8080/v1']) {
      expect(isLocalServer(url), url).toBe(true);
    }
    for (const url of [OPENAI, OPENROUTER, 'https://api.deepseek.com', 'http://172.32.0.1/v1', 'http://127.0.0.1.example.com/v1', 'not a url']) {
      expect(isLocalServer(url), url).toBe(false);
    }
  });

  it('marks the system prompt, the end of the stable prefix and the last message, and nothing without messages', () => {
    expect([...cacheBreakpoints(messages)]).toEqual([0, 3]);
    expect([...cacheBreakpoints(messages, 3)]).toEqual([0, 2, 3]);
    expect([...cacheBreakpoints(messages, 9)]).toEqual([0, 3]);
    expect([...cacheBreakpoints([{ role: 'user', content: 'x' }])]).toEqual([0]);
    expect(cacheBreakpoints([]).size).toBe(0);
  });
});
