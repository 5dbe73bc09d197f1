// One HTTP request to the model server over node:http/https, answered with Node's own response: no
// fetch classes. Node 20 loads its fetch (undici, ~20 ms of CPU) on the first use of Headers or
// Response, and the parser inside it is WebAssembly that V8 optimizes in the background, which a
// short run waits for before it can exit. node:http parses in native code and loads nothing more.
import http from 'node:http';
import type https from 'node:https';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type zlib from 'node:zlib';
import { TandemError } from './errors.js';

// Loaded on first use: a run that talks plain http to a local server with no compressed answer
// loads neither TLS (~3 ms of a one-shot run's start) nor zlib.
const requireBuiltin = createRequire(import.meta.url);
let httpsModule: typeof https | undefined;
let zlibModule: typeof zlib | undefined;
const httpsNow = (): typeof https => (httpsModule ??= requireBuiltin('node:https') as typeof https);
const zlibNow = (): typeof zlib => (zlibModule ??= requireBuiltin('node:zlib') as typeof zlib);

export interface HttpCall {
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** Sent as it is, with its content-length. */
  readonly body?: Buffer;
  readonly signal?: AbortSignal;
}

/** The answer's status line and headers; its body is read with `bodyOf`. */
export interface HttpAnswer {
  readonly status: number;
  /** A header's value (repeated ones joined by ", "), null when absent; names are case-insensitive. */
  header(name: string): string | null;
  /** The body, decompressed by its content-encoding. */
  readonly body: Readable;
}

/** http: or https: only; anything else is refused before a connection is made. */
export class UnsupportedSchemeError extends TandemError {
  readonly kind = 'unsupported-scheme' as const;
  constructor(url: URL) {
    super(`unsupported URL scheme ${url.protocol} (http: and https: only)`);
    this.name = 'UnsupportedSchemeError';
  }
}

// Kept alive across requests, as fetch's pool does: a run's second request reuses the connection.
let httpAgent: http.Agent | undefined;
let httpsAgent: https.Agent | undefined;

function agentFor(protocol: string): http.Agent | undefined {
  if (protocol === 'http:') return (httpAgent ??= new http.Agent({ keepAlive: true }));
  if (protocol === 'https:') return (httpsAgent ??= new (httpsNow().Agent)({ keepAlive: true }));
  return undefined;
}

/** The signal's reason, or an AbortError as fetch would throw. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * Sends the request and resolves once the answer's head arrived. Rejects with the socket's error
 * (its `code` kept: ECONNREFUSED, ENOTFOUND...), or with the signal's reason when it aborts; an abort
 * after the head destroys the body, whose reading then fails.
 */
export function sendHttp(call: HttpCall): Promise<HttpAnswer> {
  const agent = agentFor(call.url.protocol);
  if (agent === undefined) return Promise.reject(new UnsupportedSchemeError(call.url));
  const signal = call.signal;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const send = call.url.protocol === 'https:' ? httpsNow().request : http.request;
  const headers: Record<string, string> = { ...call.headers };
  if (call.body !== undefined) headers['content-length'] = String(call.body.length);
  return new Promise<HttpAnswer>((resolve, reject) => {
    const request = send(call.url, { method: call.method, headers, agent });
    let answered: http.IncomingMessage | undefined;
    const onAbort = (): void => {
      if (answered !== undefined) {
        // The head is in: the body's reader learns of the abort as a body cut short. Destroyed without an
        // error, since nobody may be reading it (an error with no listener would end the process).
        answered.destroy();
        return;
      }
      const reason = abortReason(signal!);
      request.destroy(reason instanceof Error ? reason : new Error(String(reason)));
      reject(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    request.on('response', (response) => {
      answered = response;
      response.once('close', () => signal?.removeEventListener('abort', onAbort));
      resolve({ status: response.statusCode ?? 0, header: (name) => headerOf(response, name), body: decoded(response) });
    });
    request.end(call.body);
  });
}

function headerOf(response: http.IncomingMessage, name: string): string | null {
  const value = response.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The body as sent before its content-encoding; an error of the response reaches the decoder too. */
function decoded(response: http.IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip' ? zlibNow().createGunzip()
      : encoding === 'deflate' ? zlibNow().createInflate()
        : encoding === 'br' ? zlibNow().createBrotliDecompress()
          : null;
  if (decoder === null) return response;
  response.on('error', (error) => decoder.destroy(error));
  // A body cut short (the socket closed, an abort) ends the decoder too, or its reader would wait forever.
  response.once('close', () => {
    if (!response.complete) decoder.destroy();
  });
  return response.pipe(decoder);
}

/** Reads a body up to `maxBytes`; past that the rest is dropped (the stream destroyed) and `truncated` says so. */
export async function readCapped(body: Readable, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(bytes);
    length += bytes.length;
    if (length > maxBytes) {
      body.destroy();
      return { body: Buffer.concat(chunks).subarray(0, maxBytes), truncated: true };
    }
  }
  return { body: Buffer.concat(chunks), truncated: false };
}
