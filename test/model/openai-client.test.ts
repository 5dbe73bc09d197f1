import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient, type OpenAIClientOptions } from '../../src/model/openai-client.js';
import type { ChatRequest } from '../../src/model/types.js';
import {
  dropReply,
  errorReply,
  hangReply,
  partialReply,
  startFakeOpenAI,
  textReply,
  type FakeOpenAIServer,
  type FakeStep,
} from '../support/fake-openai-server.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(replies: FakeStep[] | Record<string, FakeStep[]>): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAI({ replies });
  servers.push(server);
  return server;
}

/** A client with instant, recorded backoff waits. */
function clientFor(server: { url: string }, options: OpenAIClientOptions = {}) {
  const waits: number[] = [];
  const client = createOpenAIClient({
    baseURL: server.url,
    retryBaseMs: 10,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { client, waits };
}

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'say hello' },
  ],
  stream: true,
  ...overrides,
});

describe('createOpenAIClient', () => {
  it('assembles a streamed reply from its deltas and reports usage and cost', async () => {
    const server = await serve([textReply('Hello there, friend!', { chunkSize: 5, usage: { prompt_tokens: 1000, completion_tokens: 200, cached_tokens: 400 } })]);
    const { client } = clientFor(server);
    const deltas: string[] = [];
    const result = await client.chat(ask({ onText: (d) => deltas.push(d) }));
    expect(result).toMatchObject({ ok: true, text: 'Hello there, friend!', finishReason: 'stop' });
    expect(deltas).toEqual(['Hello', ' ther', 'e, fr', 'iend!']);
    if (!result.ok) throw new Error('expected ok');
    expect(result.usage).toMatchObject({ promptTokens: 1000, completionTokens: 200, cachedTokens: 400 });
    // gpt-4o: 600 * 2.5 + 400 * 1.25 + 200 * 10 per million
    expect(result.usage.cost).toBeCloseTo(0.004, 10);
    const sent = server.chatRequests()[0]!;
    expect(sent.body).toMatchObject({ model: 'gpt-4o', stream: true, stream_options: { include_usage: true } });
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'say hello' },
    ]);
    expect(sent.headers.authorization).toBe('Bearer sk-none');
  });

  it('returns a non-streamed reply and calls onText once with the whole text', async () => {
    const server = await serve([textReply('whole answer', { usage: { prompt_tokens: 7, completion_tokens: 3 } })]);
    const { client } = clientFor(server, { apiKey: 'sk-test' });
    const deltas: string[] = [];
    const result = await client.chat(ask({ stream: false, model: 'some-local-model', onText: (d) => deltas.push(d) }));
    expect(result).toMatchObject({ ok: true, text: 'whole answer', usage: { promptTokens: 7, completionTokens: 3, cost: null } });
    expect(deltas).toEqual(['whole answer']);
    expect(server.chatRequests()[0]!.body.stream).toBe(false);
    expect(server.chatRequests()[0]!.headers.authorization).toBe('Bearer sk-test');
  });

  it('retries a 500 and then succeeds', async () => {
    const server = await serve([errorReply(500, 'boom'), textReply('fine now')]);
    const { client, waits } = clientFor(server);
    const result = await client.chat(ask());
    expect(result).toMatchObject({ ok: true, text: 'fine now' });
    expect(server.chatRequests()).toHaveLength(2);
    expect(waits).toEqual([7.5]); // 10 ms base * (0.5 + 0.5 / 2)
  });

  it('backs off exponentially and gives up after maxRetries', async () => {
    const server = await serve([errorReply(503, 'a'), errorReply(502, 'b'), errorReply(500, 'c'), textReply('too late')]);
    const { client, waits } = clientFor(server, { maxRetries: 2 });
    const result = await client.chat(ask());
    expect(result).toMatchObject({ ok: false, error: { kind: 'server', status: 500, retryable: true } });
    expect(server.chatRequests()).toHaveLength(3);
    expect(waits).toEqual([7.5, 15]);
  });

  it('honours retry-after and retry-after-ms, capped', async () => {
    const server = await serve([
      errorReply(429, 'slow down', { headers: { 'retry-after': '2' } }),
      errorReply(429, 'slow down', { headers: { 'retry-after-ms': '120' } }),
      errorReply(429, 'slow down', { headers: { 'retry-after': '3600' } }),
      textReply('ok'),
    ]);
    const { client, waits } = clientFor(server, { maxRetryWaitMs: 5000 });
    const result = await client.chat(ask());
    expect(result).toMatchObject({ ok: true, text: 'ok' });
    expect(waits).toEqual([2000, 120, 5000]);
  });

  it('does not retry a 401 and says to check the key', async () => {
    const server = await serve([errorReply(401, 'Incorrect API key provided'), textReply('never')]);
    const { client, waits } = clientFor(server);
    const result = await client.chat(ask());
    expect(result).toMatchObject({ ok: false, error: { kind: 'auth', status: 401, retryable: false } });
    if (result.ok) throw new Error('expected failure');
    expect(result.error.message).toContain(server.url);
    expect(result.error.message).toContain('Incorrect API key provided');
    expect(server.chatRequests()).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('classifies a context-length 400 without retrying', async () => {
    const server = await serve([
      errorReply(400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", {
        code: 'context_length_exceeded',
      }),
    ]);
    const { client } = clientFor(server);
    const result = await client.chat(ask({ stream: false }));
    expect(result).toMatchObject({ ok: false, error: { kind: 'context_overflow', status: 400, retryable: false } });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('reports an unreachable server as a connection error after retrying', async () => {
    const port = await closedPort();
    const { client, waits } = clientFor({ url: `http://127.0.0.1:${port}/v1` }, { maxRetries: 1 });
    const result = await client.chat(ask());
    expect(result).toMatchObject({ ok: false, partialText: '', error: { kind: 'connection', retryable: true } });
    if (result.ok) throw new Error('expected failure');
    expect(result.error.message).toBe(`Cannot reach the model server at http://127.0.0.1:${port}/v1 (connection refused).`);
    expect(waits).toHaveLength(1);
  });

  it('retries a connection dropped before any reply', async () => {
    const server = await serve([dropReply(), textReply('second time lucky')]);
    const { client } = clientFor(server);
    const result = await client.chat(ask());
    expect(result).toMatchObject({ ok: true, text: 'second time lucky' });
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('stops on abort mid-stream and keeps the partial text', async () => {
    const server = await serve([partialReply('partial words then nothing', 2, 'hang', { chunkSize: 8 })]);
    const { client } = clientFor(server);
    const controller = new AbortController();
    const result = await client.chat(
      ask({
        signal: controller.signal,
        onText: (delta) => {
          if (delta === 'words th') controller.abort();
        },
      }),
    );
    expect(result).toMatchObject({ ok: false, partialText: 'partial words th', error: { kind: 'aborted', retryable: false } });
    await server.waitForDisconnects(1);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('aborts a request that has not started answering', async () => {
    const server = await serve([hangReply()]);
    const { client } = clientFor(server);
    const controller = new AbortController();
    const pending = client.chat(ask({ signal: controller.signal }));
    await server.waitForRequests(1);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, partialText: '', error: { kind: 'aborted' } });
  });

  it('reports a stream cut mid-reply as cut_off with the partial text and does not retry', async () => {
    const server = await serve([partialReply('abcdefghijklmnop', 2, 'destroy', { chunkSize: 4 }), textReply('would duplicate')]);
    const { client } = clientFor(server);
    const result = await client.chat(ask());
    expect(result).toMatchObject({ ok: false, partialText: 'abcdefgh', error: { kind: 'cut_off' } });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('treats a stream that ends without finish_reason as cut_off', async () => {
    const server = await serve([partialReply('abcdefghijklmnop', 3, 'end', { chunkSize: 4 })]);
    const { client } = clientFor(server);
    const result = await client.chat(ask());
    expect(result).toMatchObject({ ok: false, partialText: 'abcdefghijkl', error: { kind: 'cut_off', retryable: true } });
  });

  it('keeps a reply whose connection broke after finish_reason', async () => {
    const server = await serve([textReply('complete answer', { cutAfterFinish: true })]);
    const { client } = clientFor(server);
    expect(await client.chat(ask())).toMatchObject({ ok: true, text: 'complete answer', finishReason: 'stop', usage: { cost: null } });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('classifies a truncated non-streamed body instead of throwing', async () => {
    const server = await serve([partialReply('abc', 1, 'end'), partialReply('abc', 1, 'destroy')]);
    const { client } = clientFor(server, { maxRetries: 0 });
    expect(await client.chat(ask({ stream: false }))).toMatchObject({ ok: false, error: { kind: 'server' } });
    expect(await client.chat(ask({ stream: false }))).toMatchObject({ ok: false, error: { kind: 'connection' } });
  });

  it('retries a stream cut before any text was delivered', async () => {
    const server = await serve([partialReply('never seen', 0, 'destroy'), textReply('clean')]);
    const { client } = clientFor(server);
    expect(await client.chat(ask())).toMatchObject({ ok: true, text: 'clean' });
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('times out when the server goes silent, and retries', async () => {
    const server = await serve([hangReply(), textReply('awake')]);
    const { client } = clientFor(server, { timeoutMs: 300 });
    expect(await client.chat(ask())).toMatchObject({ ok: true, text: 'awake' });
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('gives up with a timeout error', async () => {
    const server = await serve([hangReply()]);
    const { client } = clientFor(server, { timeoutMs: 200, maxRetries: 0 });
    const result = await client.chat(ask());
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout', retryable: true } });
    if (result.ok) throw new Error('expected failure');
    expect(result.error.message).toContain(server.url);
  });

  it('lets an exception thrown by onText propagate instead of classifying it', async () => {
    const server = await serve([textReply('some text here')]);
    const { client } = clientFor(server);
    await expect(
      client.chat(
        ask({
          onText: () => {
            throw new TypeError('renderer bug');
          },
        }),
      ),
    ).rejects.toThrow('renderer bug');
  });

  it('sends temperature 0 to models that take one, none to those that reject it, and the request’s own when given', async () => {
    const server = await serve([textReply('a'), textReply('b'), textReply('c')]);
    const { client } = clientFor(server);
    await client.chat(ask({ model: 'gpt-4o' }));
    await client.chat(ask({ model: 'o3' }));
    await client.chat(ask({ model: 'gpt-4o', temperature: 0.7 }));
    const bodies = server.chatRequests().map((r) => r.body);
    expect(bodies[0].temperature).toBe(0);
    expect('temperature' in bodies[1]).toBe(false);
    expect(bodies[2].temperature).toBe(0.7);
  });

  it('reports zero usage and null cost when the server sends none', async () => {
    const server = await serve([textReply('x', { noUsage: true })]);
    const { client } = clientFor(server);
    expect(await client.chat(ask())).toMatchObject({ ok: true, usage: { promptTokens: 0, completionTokens: 0, cost: null } });
  });
});

/** A port nothing listens on: bind one, then close it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('reasoning', () => {
  it('keeps streamed reasoning_content deltas apart from the answer', async () => {
    const server = await serve([textReply('The answer.', { reasoning: 'First I consider the question carefully.', chunkSize: 6 })]);
    const { client } = clientFor(server);
    const text: string[] = [];
    const reasoning: string[] = [];
    const result = await client.chat(ask({ model: 'deepseek-reasoner', onText: (d) => text.push(d), onReasoning: (d) => reasoning.push(d) }));
    expect(result).toMatchObject({ ok: true, text: 'The answer.', reasoning: 'First I consider the question carefully.' });
    expect(text.join('')).toBe('The answer.');
    expect(reasoning.join('')).toBe('First I consider the question carefully.');
    expect(reasoning.length).toBeGreaterThan(1);
  });

  it('reads the `reasoning` field and a non-streamed message’s reasoning', async () => {
    const server = await serve([
      textReply('streamed answer', { reasoning: 'thought one', reasoningField: 'reasoning' }),
      textReply('plain answer', { reasoning: 'thought two' }),
    ]);
    const { client } = clientFor(server);
    expect(await client.chat(ask())).toMatchObject({ ok: true, text: 'streamed answer', reasoning: 'thought one' });
    const reasoning: string[] = [];
    expect(await client.chat(ask({ stream: false, onReasoning: (d) => reasoning.push(d) }))).toMatchObject({ ok: true, text: 'plain answer', reasoning: 'thought two' });
    expect(reasoning).toEqual(['thought two']);
  });

  it('takes a leading <think> block out of the content, streamed and not', async () => {
    const content = '<think>\nmaybe edit the wrong file\n</think>\n\nThe real answer.';
    const server = await serve([textReply(content, { chunkSize: 3 }), textReply(content)]);
    const { client } = clientFor(server);
    const text: string[] = [];
    expect(await client.chat(ask({ onText: (d) => text.push(d) }))).toMatchObject({ ok: true, text: 'The real answer.', reasoning: '\nmaybe edit the wrong file\n' });
    expect(text.join('')).toBe('The real answer.');
    expect(await client.chat(ask({ stream: false }))).toMatchObject({ ok: true, text: 'The real answer.' });
  });

  it('gives no answer at all for a reply cut inside its think block', async () => {
    const server = await serve([textReply('<think>still thinking about app.py', { finishReason: 'length' })]);
    const { client } = clientFor(server);
    expect(await client.chat(ask())).toMatchObject({ ok: true, text: '', reasoning: 'still thinking about app.py', finishReason: 'length' });
  });

  it('counts reasoning as a sign of life for the idle timeout', async () => {
    // Twelve reasoning chunks 100 ms apart: 1.2 s before the first answer text, never 0.5 s of silence.
    const server = await serve([textReply('done', { reasoning: 'r'.repeat(96), chunkSize: 8, chunkDelayMs: 100 })]);
    const { client } = clientFor(server, { timeoutMs: 500, maxRetries: 0 });
    expect(await client.chat(ask())).toMatchObject({ ok: true, text: 'done' });
  });

  it('counts reasoning tokens and cached tokens of every usage shape into the cost', async () => {
    const server = await serve([
      textReply('a', { rawUsage: { prompt_tokens: 1_000_000, completion_tokens: 1_000_000, prompt_cache_hit_tokens: 1_000_000, completion_tokens_details: { reasoning_tokens: 400_000 } } }),
      textReply('b', { rawUsage: { prompt_tokens: 0, completion_tokens: 0, cache_read_input_tokens: 1_000_000 } }),
    ]);
    const { client } = clientFor(server);
    const first = await client.chat(ask({ model: 'deepseek-reasoner' }));
    expect(first.usage).toMatchObject({ promptTokens: 1_000_000, cachedTokens: 1_000_000, reasoningTokens: 400_000 });
    expect(first.usage?.cost).toBeCloseTo(0.14 + 2.19);
    const second = await client.chat(ask({ model: 'anthropic/claude-sonnet-4' }));
    expect(second.usage).toMatchObject({ promptTokens: 1_000_000, cachedTokens: 1_000_000 });
    expect(second.usage?.cost).toBeCloseTo(0.3);
  });

  it('sends reasoning_effort and the cache hints the rules ask for', async () => {
    const server = await serve([textReply('a'), textReply('b')]);
    const { client } = clientFor(server, { rules: () => ({ reasoningEffort: 'low', cacheControl: true, cachePrompt: true }) });
    await client.chat(ask());
    await client.chat(ask({ stream: false }));
    for (const request of server.chatRequests()) {
      expect(request.body).toMatchObject({ reasoning_effort: 'low', cache_prompt: true });
      expect(request.body.messages[0].content[0].cache_control).toEqual({ type: 'ephemeral' });
    }
  });
});
