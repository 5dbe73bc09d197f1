// The chat completions call over node:http, against a raw HTTP server that answers byte by byte as
// real servers do: events split anywhere, CRLF lines, comments, an error event, gzip, a redirect.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { completeChat, streamChat, type ChatCall, type ChatChunk } from '../../src/model/chat-http.js';
import { ModelHttpError, ModelReplyError } from '../../src/model/errors.js';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

interface Seen {
  method?: string;
  url?: string;
  headers?: http.IncomingHttpHeaders;
  body?: string;
}

/** A server answering with `handler`; resolves to its base URL (with /v1) and what it was sent. */
async function serve(handler: (res: http.ServerResponse) => unknown): Promise<{ baseURL: string; seen: Seen }> {
  const seen: Seen = {};
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      Object.assign(seen, { method: req.method, url: req.url, headers: req.headers, body });
      void handler(res);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`, seen };
}

function call(baseURL: string, signal = new AbortController().signal): ChatCall {
  return { baseURL, apiKey: 'sk-test', body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, headers: { 'x-extra': 'yes' }, signal };
}

async function collect(chunks: AsyncIterator<ChatChunk>): Promise<ChatChunk[]> {
  const all: ChatChunk[] = [];
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) all.push(next.value);
  return all;
}

const delta = (content: string): string => JSON.stringify({ choices: [{ delta: { content } }] });
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

describe('the chat completions call', () => {
  it('posts the body as JSON to <base>/chat/completions with the key and the extra headers', async () => {
    const { baseURL, seen } = await serve((res) => res.end(JSON.stringify({ choices: [{ message: { content: 'hello' }, finish_reason: 'stop' }] })));
    const completion = await completeChat(call(baseURL));
    expect(completion.choices?.[0]?.message?.content).toBe('hello');
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
    expect(seen.headers).toMatchObject({ authorization: 'Bearer sk-test', 'content-type': 'application/json', 'x-extra': 'yes' });
    expect(JSON.parse(seen.body ?? '')).toEqual({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('reads events split anywhere, CRLF lines, comments, multi-line data and a multi-byte character cut in two', async () => {
    const text = `: keep-alive\r\n\r\ndata: ${delta('héllo')}\r\n\r\nevent: message\ndata: ${delta(' wörld')}\n\ndata: {"choices":\ndata: [{"delta":{"content":"!"}}]}\n\ndata: [DONE]\n\n`;
    const bytes = Buffer.from(text);
    const { baseURL } = await serve(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Seven bytes at a time, and each of the two-byte é and ö cut between its bytes.
      const cuts = new Set([bytes.indexOf('é') + 1, bytes.indexOf('ö') + 1]);
      for (let at = 7; at < bytes.length; at += 7) cuts.add(at);
      let from = 0;
      for (const cut of [...cuts].sort((a, b) => a - b)) {
        res.write(bytes.subarray(from, cut));
        from = cut;
        await pause();
      }
      res.write(bytes.subarray(from));
      res.end();
    });
    const chunks = await collect(await streamChat(call(baseURL)));
    expect(chunks.map((c) => c.choices?.[0]?.delta?.content).join('')).toBe('héllo wörld!');
  });

  it('keeps a last event sent without its blank line, and ends at [DONE] even if the server goes on', async () => {
    const { baseURL } = await serve((res) => res.end(`data: ${delta('a')}\n\ndata: ${delta('b')}`));
    expect((await collect(await streamChat(call(baseURL)))).length).toBe(2);
    const after = await serve((res) => {
      res.write(`data: ${delta('a')}\n\ndata: [DONE]\n\n`);
      // Never ended: the reader must stop at [DONE] anyway.
    });
    expect((await collect(await streamChat(call(after.baseURL)))).length).toBe(1);
  });

  it('throws the server\'s error event mid-stream as a reply error', async () => {
    const { baseURL } = await serve((res) => res.end(`data: ${delta('a')}\n\nevent: error\ndata: {"error":{"message":"upstream provider failed"}}\n\n`));
    const chunks = await streamChat(call(baseURL));
    await expect(collect(chunks)).rejects.toThrow(ModelReplyError);
  });

  it('throws an HTTP error with the status, the body\'s message and the headers', async () => {
    const { baseURL } = await serve((res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
      res.end(JSON.stringify({ error: { message: 'slow down' } }));
    });
    const error = await completeChat(call(baseURL)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelHttpError);
    expect(error).toMatchObject({ status: 429, message: 'slow down', error: { message: 'slow down' } });
    expect((error as ModelHttpError).headers.get('Retry-After')).toBe('2');
  });

  it('does not follow a redirect: the key would go wherever it points', async () => {
    let followed = false;
    const target = await serve(() => {
      followed = true;
    });
    const targetServer = server;
    server = undefined;
    const { baseURL } = await serve((res) => {
      res.writeHead(307, { location: `${target.baseURL}chat/completions` });
      res.end();
    });
    const error = await completeChat(call(baseURL)).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 307, message: expect.stringContaining(target.baseURL) });
    expect(followed).toBe(false);
    targetServer?.closeAllConnections();
    targetServer?.close();
  });

  it('decompresses a gzip answer', async () => {
    const { baseURL } = await serve((res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(JSON.stringify({ choices: [{ message: { content: 'zipped' } }] })));
    });
    expect((await completeChat(call(baseURL))).choices?.[0]?.message?.content).toBe('zipped');
  });

  it('an abort after the answer began cuts the body: the reader fails, and nothing is left unhandled', async () => {
    const { baseURL } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${delta('a')}\n\n`);
    });
    const controller = new AbortController();
    const chunks = await streamChat(call(baseURL, controller.signal));
    expect((await chunks.next()).value).toMatchObject({ choices: [{ delta: { content: 'a' } }] });
    controller.abort();
    await expect(chunks.next()).rejects.toThrow();
    // An abort with nobody reading the body: no error event may go unheard (it would end the process).
    const quiet = new AbortController();
    const unread = await streamChat(call(baseURL, quiet.signal));
    quiet.abort();
    await pause();
    await pause();
    await expect(unread.next()).rejects.toThrow();
  });

  it('a connection reset after the head, with nobody reading the body, leaves nothing unhandled; a reader sees it', async () => {
    let sockets = 0;
    const { baseURL } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${delta('a')}\n\n`);
      sockets++;
      setTimeout(() => res.socket?.destroy(), 5);
    });
    const unread = await streamChat(call(baseURL));
    const read = await streamChat(call(baseURL));
    expect((await read.next()).done).toBe(false);
    await expect(read.next()).rejects.toThrow();
    await pause();
    expect(sockets).toBe(2);
    expect(unread).toBeDefined();
  });

  it('rejects with the socket\'s own error, its code kept, when nothing listens', async () => {
    const { baseURL } = await serve((res) => res.end());
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    await expect(completeChat(call(baseURL))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
