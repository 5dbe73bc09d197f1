import { describe, expect, it } from 'vitest';
import { createTokenizerPool, FALLBACK_ENCODING } from '../../src/model/tokens.js';

describe('token counting', () => {
  const pool = createTokenizerPool();

  it('uses the model encoding for OpenAI names, with or without a provider prefix', () => {
    expect(pool.counterFor('gpt-4o').encoding).toBe('o200k_base');
    expect(pool.counterFor('gpt-4').encoding).toBe('cl100k_base');
    expect(pool.counterFor('openai/gpt-4').encoding).toBe('cl100k_base');
  });

  it('falls back to o200k_base for unknown models', () => {
    const counter = pool.counterFor('qwen2.5-coder:32b');
    expect(counter.encoding).toBe(FALLBACK_ENCODING);
    expect(counter.count('hello world')).toBe(2);
  });

  it('counts real tokens and tolerates special-token text', () => {
    const counter = pool.counterFor('gpt-4o');
    expect(counter.count('')).toBe(0);
    expect(counter.count('function add(a, b) { return a + b; }')).toBeGreaterThan(8);
    expect(counter.count('before <|endoftext|> after')).toBeGreaterThan(3);
  });

  it('counters from one pool share the encoder and stay consistent', () => {
    const a = pool.counterFor('gpt-4o');
    const b = pool.counterFor('unknown-local-model');
    const text = 'The quick brown fox jumps over the lazy dog.';
    expect(a.count(text)).toBe(b.count(text));
  });

  it('free() releases the encoders and a later count builds them again', () => {
    const own = createTokenizerPool();
    expect(own.counterFor('gpt-4o').count('hello')).toBe(1);
    own.free();
    expect(own.counterFor('gpt-4o').count('hello')).toBe(1);
    own.free();
  });
});
