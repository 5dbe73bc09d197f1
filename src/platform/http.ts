// Small HTTP requests to the model server outside the chat (its model list, llama-server's /props,
// Ollama's /api/show): a short timeout and a size cap, since what answers is untrusted and may never end.
import { createNodeFetch } from './node-fetch.js';

export interface HttpRequest {
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON. */
  readonly json?: unknown;
  readonly timeoutMs: number;
  /** A body larger than this is refused (the request is cut when it passes the cap). */
  readonly maxBytes: number;
}

export type HttpResult =
  | { readonly ok: true; readonly status: number; readonly text: string }
  | { readonly ok: false; readonly reason: 'timeout' | 'too_large' | 'unreachable'; readonly message: string };

export interface HttpPort {
  request(url: string, options: HttpRequest): Promise<HttpResult>;
}

export const fetchHttp: HttpPort = {
  async request(url, options) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    try {
      const response = await createNodeFetch()(url, {
        method: options.method ?? 'GET',
        headers: { ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
        body: options.json === undefined ? undefined : JSON.stringify(options.json),
        signal: controller.signal,
        redirect: 'error',
      });
      const { body, truncated } = await readCapped(response.body, options.maxBytes);
      if (truncated) return { ok: false, reason: 'too_large', message: `the answer from ${url} is larger than ${options.maxBytes} bytes` };
      return { ok: true, status: response.status, text: body.toString('utf8') };
    } catch (error) {
      if (controller.signal.aborted) return { ok: false, reason: 'timeout', message: `no answer from ${url} within ${options.timeoutMs} ms` };
      return { ok: false, reason: 'unreachable', message: `${url}: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      clearTimeout(timer);
    }
  },
};

/** Reads a body up to `maxBytes`; past that the rest is cancelled and `truncated` says so. */
export async function readCapped(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  if (!stream) return { body: Buffer.alloc(0), truncated: false };
  const chunks: Buffer[] = [];
  let length = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { body: Buffer.concat(chunks), truncated: false };
    chunks.push(Buffer.from(value));
    length += value.length;
    if (length > maxBytes) {
      await reader.cancel().catch(() => {});
      return { body: Buffer.concat(chunks).subarray(0, maxBytes), truncated: true };
    }
  }
}
