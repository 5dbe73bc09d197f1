// fetch() for the model server over node:http/https: the same Response, without fetch's own HTTP client.
// Node 20's fetch parses responses with llhttp compiled to WebAssembly, and after a few responses V8
// hands its 29 KB parser function to TurboFan: ~100-400 ms of CPU in a background thread, which a short
// run (one request, then exit) waits for before it can end. node:http parses in native code.
// Requests this does not cover (a streamed or form body, a redirect to follow) go to the global fetch.
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

type Fetch = typeof globalThis.fetch;

/**
 * Ports fetch refuses to connect to (the Fetch standard's "bad ports"): requests to them go to fetch, so
 * they fail as they always did ("bad port"), with tandem's explanation of it.
 */
const FETCH_BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The bodies sent as they are; anything else (a stream, FormData, a Blob) is left to the global fetch. */
function plainBody(body: RequestInit['body']): Buffer | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return undefined;
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => (record[name] = value));
  return record;
}

/** The body as fetch gives it: decompressed by its content-encoding. */
function decoded(response: http.IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(zlib.createGunzip());
  if (encoding === 'deflate') return response.pipe(zlib.createInflate());
  if (encoding === 'br') return response.pipe(zlib.createBrotliDecompress());
  return response;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** The answer as fetch's Response; throws where a Response cannot hold it. */
function toResponse(response: http.IncomingMessage, status: number, head: boolean): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) headers.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
  const empty = status === 204 || status === 304 || head;
  const init = { status, statusText: response.statusMessage ?? '', headers };
  // Built before the body is touched, so a refused status leaves the socket to be destroyed.
  const checked = new Response(null, init);
  if (empty) {
    response.resume();
    return checked;
  }
  return new Response(Readable.toWeb(decoded(response)) as ReadableStream<Uint8Array>, init);
}

/** A drop-in fetch: plain requests over node:http/https, the rest through `fallback` (the global fetch). */
export function createNodeFetch(fallback: Fetch = globalThis.fetch): Fetch {
  // Kept alive across requests, as fetch's own pool does: a run's second request reuses the connection.
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };
  return (input, init = {}) => {
    if (!(typeof input === 'string' || input instanceof URL)) return fallback(input, init);
    const url = new URL(input);
    const body = plainBody(init.body);
    const agent = url.protocol === 'http:' || url.protocol === 'https:' ? agents[url.protocol] : null;
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (!agent || body === undefined || init.redirect === 'manual' || FETCH_BAD_PORTS.has(port)) return fallback(input, init);
    const signal = init.signal ?? null;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const send = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<Response>((resolve, reject) => {
      const headers = headerRecord(init.headers);
      if (body !== null) headers['content-length'] = String(body.length);
      const request = send(url, { method: init.method ?? 'GET', headers, agent });
      const onAbort = (): void => {
        const reason = abortReason(signal!);
        request.destroy(reason instanceof Error ? reason : new Error(String(reason)));
        reject(reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      request.on('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(new TypeError('fetch failed', { cause: error }));
      });
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          // A redirect: fetch knows how to follow (or refuse) it; ask it the same thing again.
          signal?.removeEventListener('abort', onAbort);
          response.resume();
          fallback(input, init).then(resolve, reject);
          return;
        }
        response.once('end', () => signal?.removeEventListener('abort', onAbort));
        try {
          resolve(toResponse(response, status, init.method === 'HEAD'));
        } catch (error) {
          // What a Response cannot hold (a status outside 200-599, a header value fetch refuses): fetch fails as it would.
          response.destroy();
          reject(new TypeError('fetch failed', { cause: error }));
        }
      });
      request.end(body ?? undefined);
    });
  };
}
