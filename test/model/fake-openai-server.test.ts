// The scripted fake server is what every model test stands on, so its own behaviour is pinned here.
import { afterEach, describe, expect, it } from 'vitest';
import { errorReply, startFakeOpenAI, textReply, type FakeOpenAIServer, type FakeOpenAIOptions } from '../support/fake-openai-server.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(options: FakeOpenAIOptions): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAI(options);
  servers.push(server);
  return server;
}

async function chat(server: FakeOpenAIServer, model: string, stream = false): Promise<{ status: number; body: string }> {
  const response = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi there!' }] }),
  });
  return { status: response.status, body: await response.text() };
}

describe('startFakeOpenAI', () => {
  it('routes requests by model, falls back to the shared script, then to the fallback step', async () => {
    const server = await serve({
      replies: { main: [textReply('main 1'), textReply('main 2')], weak: [textReply('commit msg')], '*': [textReply('shared')] },
      fallback: textReply('fallback'),
    });
    const text = async (model: string) => JSON.parse((await chat(server, model)).body).choices[0].message.content;
    expect(await text('weak')).toBe('commit msg');
    expect(await text('main')).toBe('main 1');
    expect(await text('main')).toBe('main 2');
    expect(await text('main')).toBe('shared');
    expect(await text('other')).toBe('fallback');
    expect(server.chatRequests('main')).toHaveLength(3);
    expect(server.chatRequests()[0]).toMatchObject({ model: 'weak', stream: false, headers: { authorization: 'Bearer k' } });
    expect(server.chatRequests()[0]!.body.messages[0].content).toBe('hi there!');
  });

  it('answers 400 naming the model when the script runs out', async () => {
    const server = await serve({ replies: [] });
    const { status, body } = await chat(server, 'lonely');
    expect(status).toBe(400);
    expect(body).toContain('no scripted reply left for model lonely');
  });

  it('streams SSE chunks ending in finish_reason, usage and [DONE]', async () => {
    const server = await serve({ replies: [textReply('abcdefghij', { chunkSize: 4, usage: { prompt_tokens: 5 } })] });
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, stream_options: { include_usage: true }, messages: [] }),
    });
    const events = (await response.text()).split('\n\n').filter(Boolean).map((e) => e.replace(/^data: /, ''));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('abcdefghij');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 3 } });
  });

  it('plays error steps with headers and dynamic steps built from the request', async () => {
    const server = await serve({
      replies: [
        errorReply(429, 'slow', { headers: { 'retry-after': '1' } }),
        (request) => textReply(`you said ${request.body.messages[0].content}`),
      ],
    });
    const first = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');
    expect(await first.json()).toMatchObject({ error: { message: 'slow' } });
    expect(JSON.parse((await chat(server, 'm')).body).choices[0].message.content).toBe('you said hi there!');
  });

  it('lists models, accepts steps added later and lets tests wait for requests', async () => {
    const server = await serve({ replies: { a: [], b: [] } });
    const models = (await (await fetch(`${server.url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(['a', 'b']);
    server.enqueue([textReply('late')], 'a');
    const pending = chat(server, 'a');
    await server.waitForRequests(2);
    expect((await pending).body).toContain('late');
  });
});
