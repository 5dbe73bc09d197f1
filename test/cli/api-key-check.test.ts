// Which servers need an API key before tandem sends them anything.
import { describe, expect, it } from 'vitest';
import { isHosted, missingApiKeyProblem } from '../../src/cli/api-key-check.js';

describe('missing API key', () => {
  it('counts public names and addresses as hosted, this machine and private networks as local', () => {
    for (const url of ['https://api.openai.com/v1', 'https://openrouter.ai/api/v1', 'http://8.8.8.8:8080/v1', 'http://[2001:db8::1]/v1']) expect(isHosted(url), url).toBe(true);
    for (const url of ['http://127.0.0.1:8080/v1', 'http://localhost:11434/v1', 'http://[::1]:8080', 'http://192.168.1.5/v1', 'http://10.0.0.2/v1', 'http://172.20.0.1/v1', 'http://100.100.1.1/v1', 'http://gpu-box:8000/v1', 'http://gpu.lan/v1', 'http://llm.internal/v1']) {
      expect(isHosted(url), url).toBe(false);
    }
  });

  it('is a problem only without a key, naming the server (the default one when none is set)', () => {
    expect(missingApiKeyProblem(null, null)).toBe('no API key for https://api.openai.com/v1: set OPENAI_API_KEY (or --api-key); a local server needs none');
    expect(missingApiKeyProblem(null, 'sk-x')).toBeNull();
    expect(missingApiKeyProblem('http://127.0.0.1:1/v1', null)).toBeNull();
  });
});
