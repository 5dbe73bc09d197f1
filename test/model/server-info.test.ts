// What a server says about its models is untrusted: a server that never answers costs a short timeout, a
// huge answer is refused at the cap, names are bounded and shown escaped; and a model's own reasoning tag.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listModels, renderModelList } from '../../src/model/model-list.js';
import { askServer, isHostedApi } from '../../src/model/server-info.js';
import { createThinkSplitter } from '../../src/model/think-tags.js';
import { fetchHttp, type HttpPort } from '../../src/platform/http.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** An HTTP port answering from a table of paths, recording what was asked. */
function tableHttp(answers: Record<string, unknown>): HttpPort & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async request(url) {
      asked.push(new URL(url).pathname);
      const body = answers[new URL(url).pathname];
      return body === undefined ? { ok: true, status: 404, text: 'no' } : { ok: true, status: 200, text: JSON.stringify(body) };
    },
  };
}

describe('askServer', () => {
  it('gives up on a server that accepts the connection and never answers, and asks it nothing more', async () => {
    let connections = 0;
    const url = await serve(() => {
      connections++; // never respond
    });
    const info = await askServer({ baseURL: url, apiKey: null, http: fetchHttp, model: 'm', timeoutMs: 200 });
    expect(info).toEqual({ models: null, contextWindow: null, truncated: false });
    // On a loaded machine the 200 ms may pass before the request reaches the handler: at most the one
    // question was asked, never the two after it.
    expect(connections).toBeLessThanOrEqual(1);
  });

  it('refuses an answer larger than the cap instead of reading it all', async () => {
    let written = 0;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (written < 64 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
        if (written < 64 * 1024 * 1024) res.once('drain', pump);
        else res.end();
      };
      res.write('{"data":[');
      pump();
    });
    const result = await fetchHttp.request(`${url}/models`, { timeoutMs: 5000, maxBytes: 1024 * 1024 });
    expect(result).toMatchObject({ ok: false, reason: 'too_large' });
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('keeps only string ids of a bounded length, at most 2000 of them, and says the list was cut', async () => {
    const data = [{ id: 42 }, { id: 'x'.repeat(500) }, { id: '' }, ...Array.from({ length: 2500 }, (_, i) => ({ id: `m${i}` }))];
    const http = tableHttp({ '/v1/models': { data } });
    const info = await askServer({ baseURL: 'http://10.0.0.2:8000/v1', apiKey: 'k', http, model: 'nothing-here' });
    expect(info.models).toHaveLength(2000);
    expect(info.truncated).toBe(true);
    expect(info.models![0]).toEqual({ id: 'm0', contextWindow: null });
  });

  it("prefers llama-server's running window over the list's trained one; asks Ollama's /api/show only without either", async () => {
    const llama = tableHttp({ '/v1/models': { data: [{ id: 'q', meta: { n_ctx_train: 131072 } }] }, '/props': { default_generation_settings: { n_ctx: 8192 } } });
    expect((await askServer({ baseURL: 'http://127.0.0.1:8080/v1', apiKey: null, http: llama, model: null })).contextWindow).toEqual({ model: 'q', tokens: 8192, from: '/props' });
    expect(llama.asked).toEqual(['/v1/models', '/props']);
    const ollama = tableHttp({ '/v1/models': { data: [{ id: 'qwen3:8b' }] }, '/api/show': { parameters: 'temperature 0.6\nnum_ctx 16384', model_info: { 'qwen3.context_length': 40960 } } });
    expect((await askServer({ baseURL: 'http://127.0.0.1:11434/v1', apiKey: null, http: ollama, model: 'qwen3:8b' })).contextWindow).toEqual({ model: 'qwen3:8b', tokens: 16384, from: '/api/show' });
    const absurd = tableHttp({ '/v1/models': { data: [{ id: 'z', max_model_len: -5 }, { id: 'y', max_model_len: 1e12 }] } });
    const info = await askServer({ baseURL: 'http://127.0.0.1:1/v1', apiKey: null, http: absurd, model: 'z' });
    expect(info.contextWindow).toBeNull();
  });

  it('knows the hosted APIs it does not ask at start-up', () => {
    expect(isHostedApi('https://api.openai.com/v1')).toBe(true);
    expect(isHostedApi('https://openrouter.ai/api/v1')).toBe(true);
    expect(isHostedApi('http://127.0.0.1:8080/v1')).toBe(false);
    expect(isHostedApi('https://llm.internal.example/v1')).toBe(false);
  });
});

describe('the model list', () => {
  it('escapes control characters in names and bounds what is printed', () => {
    const served = [{ id: 'evil\u001b]0;pwned\u0007name', contextWindow: 4096 }, ...Array.from({ length: 300 }, (_, i) => ({ id: `evil-${i}`, contextWindow: null }))];
    const text = renderModelList(listModels('evil', served, []), 'evil', '');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(text).toContain('evil\\e]0;pwned\\x07name');
    expect(text).toContain('... and 101 more; narrow the search');
  });
});

describe("a model's reasoning tag", () => {
  it('is recognised besides think, thinking and reasoning; a tag that is not a plain name is not', () => {
    const run = (tag: string | null, content: string) => {
      const splitter = createThinkSplitter(tag);
      const piece = splitter.push(content);
      const end = splitter.end();
      return { reasoning: piece.reasoning + end.reasoning, text: piece.text + end.text };
    };
    expect(run('scratchpad', '<scratchpad>plan</scratchpad>\nanswer')).toEqual({ reasoning: 'plan', text: 'answer' });
    expect(run(null, '<scratchpad>plan</scratchpad>\nanswer').reasoning).toBe('');
    expect(run('a b', '<a b>x</a b>y').reasoning).toBe('');
    expect(run('think', '<think>t</think>\nok')).toEqual({ reasoning: 't', text: 'ok' });
  });
});
