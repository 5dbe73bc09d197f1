// Small HTTP requests to the model server outside the chat (its model list, llama-server's /props,
// Ollama's /api/show): a short timeout and a size cap, since what answers is untrusted and may never end.
import { readCapped, sendHttp } from './http-request.js';

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
      const answer = await sendHttp({
        method: options.method ?? 'GET',
        url: new URL(url),
        headers: { ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
        body: options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json)),
        signal: controller.signal,
      });
      if (answer.status >= 300 && answer.status < 400) {
        answer.body.destroy();
        // Followed nowhere: what a server says about itself comes from the address the user gave.
        return { ok: false, reason: 'unreachable', message: `${url}: redirected (HTTP ${answer.status})` };
      }
      const { body, truncated } = await readCapped(answer.body, options.maxBytes);
      if (truncated) return { ok: false, reason: 'too_large', message: `the answer from ${url} is larger than ${options.maxBytes} bytes` };
      return { ok: true, status: answer.status, text: body.toString('utf8') };
    } catch (error) {
      if (controller.signal.aborted) return { ok: false, reason: 'timeout', message: `no answer from ${url} within ${options.timeoutMs} ms` };
      return { ok: false, reason: 'unreachable', message: `${url}: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      clearTimeout(timer);
    }
  },
};
