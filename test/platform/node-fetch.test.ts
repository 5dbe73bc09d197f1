import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../src/platform/node-fetch.js';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server answering with `handler`; resolves to its base URL. */
async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A fallback that records what it was asked and answers 299. */
function recordingFallback(): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  return { calls, fetch: async (input) => { calls.push(String(input)); return new Response('from fetch', { status: 299 }); } };
}

describe('fetch over node:http', () => {
  it('sends the method, headers and body, and answers a Response with status, every header and the body', async () => {
    const seen: { method?: string; headers?: http.IncomingHttpHeaders; body?: string } = {};
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        Object.assign(seen, { method: req.method, headers: req.headers, body });
        res.writeHead(201, 'Made', [['content-type', 'application/json'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2']]);
        res.end('{"ok":true}');
      });
    });
    const fallback = recordingFallback();
    const response = await createNodeFetch(fallback.fetch)(`${url}/v1/chat`, {
      method: 'POST',
      headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer k' }),
      body: JSON.stringify({ hello: 'wörld' }),
    });

    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ ok: true });
    expect(seen.method).toBe('POST');
    expect(seen.headers?.['authorization']).toBe('Bearer k');
    expect(seen.headers?.['content-length']).toBe(String(Buffer.byteLength(JSON.stringify({ hello: 'wörld' }))));
    expect(JSON.parse(seen.body ?? '')).toEqual({ hello: 'wörld' });
    expect(fallback.calls).toEqual([]);
  });

  it('decompresses a gzip body and streams a body in its chunks', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/gzip') {
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync('squeezed text'));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      setImmediate(() => res.end('data: 2\n\n'));
    });
    const fetchNode = createNodeFetch(recordingFallback().fetch);
    expect(await (await fetchNode(`${url}/gzip`)).text()).toBe('squeezed text');
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    for await (const chunk of (await fetchNode(`${url}/events`)).body!) chunks.push(decoder.decode(chunk));
    expect(chunks.join('')).toBe('data: 1\n\ndata: 2\n\n');
  });

  it('rejects as fetch does: a refused connection is a TypeError whose cause has the code, an abort is the signal\'s reason', async () => {
    const url = await serve((_req, res) => void setTimeout(() => res.end('late'), 5_000).unref());
    const fetchNode = createNodeFetch(recordingFallback().fetch);
    const controller = new AbortController();
    const pending = fetchNode(url, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(fetchNode(url, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });

    const port = (server!.address() as AddressInfo).port;
    server!.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const refused = await fetchNode(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).message).toBe('fetch failed');
    expect(((refused as Error).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('leaves to fetch what it does not cover: a redirect, a streamed body, a port fetch refuses, another scheme', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(307, { location: '/elsewhere' });
      res.end();
    });
    const fallback = recordingFallback();
    const fetchNode = createNodeFetch(fallback.fetch);
    expect((await fetchNode(`${url}/moved`)).status).toBe(299);
    expect((await fetchNode(url, { method: 'POST', body: new Blob(['x']) })).status).toBe(299);
    expect((await fetchNode('http://127.0.0.1:6000/')).status).toBe(299);
    expect((await fetchNode('data:text/plain,hi')).status).toBe(299);
    expect(fallback.calls).toEqual([`${url}/moved`, url, 'http://127.0.0.1:6000/', 'data:text/plain,hi']);
  });

  it('fails as fetch does, without crashing, on a status a Response cannot hold (a hostile server)', async () => {
    const url = await serve((req, res) => {
      req.socket.end('HTTP/1.1 799 Odd\r\ncontent-length: 2\r\n\r\nok');
    });
    const failed = await createNodeFetch(recordingFallback().fetch)(url).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(TypeError);
    expect((failed as Error).message).toBe('fetch failed');
    expect(((failed as Error).cause as Error).name).toBe('RangeError');
  });
});
