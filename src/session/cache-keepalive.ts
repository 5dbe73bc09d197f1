// Cache keep-alive: after a reply, while the chat is idle, a minimal request (one output token) with the
// last request's messages, byte for byte, every interval (4 min 55 s: a provider's prompt cache lasts
// 5 minutes), at most N times. Typing ends the pings until the next reply. Their usage and cost count.
import type { ChatMessage, ModelClient, Usage } from '../model/types.js';
import type { Timers } from '../platform/timers.js';
import type { SessionTotals } from './totals.js';

export const KEEPALIVE_INTERVAL_MS = 295_000;

export interface KeepAliveOptions {
  readonly pings: number;
  readonly intervalMs: number;
  readonly timers: Timers;
  /** The chat's totals (made after the client this wraps). */
  readonly totals: () => SessionTotals;
  /** Told after each ping: its number, the most there will be, and its usage (null: it failed, pings stop). */
  readonly onPing: (n: number, of: number, usage: Usage | null, error?: string) => void;
}

interface LastRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly stablePrefix: number | undefined;
}

export class CacheKeepAlive {
  private last: LastRequest | null = null;
  private sent = 0;
  private cancel: (() => void) | null = null;
  private client: ModelClient | null = null;

  constructor(private readonly options: KeepAliveOptions) {}

  /** The client the chat uses, recording each chat request (one with a stable prefix) that got a reply. */
  wrap(client: ModelClient): ModelClient {
    this.client = client;
    return {
      chat: async (request) => {
        const result = await client.chat(request);
        if (result.ok && request.stablePrefix !== undefined) {
          this.last = { model: request.model, messages: request.messages, stablePrefix: request.stablePrefix };
          this.sent = 0;
        }
        return result;
      },
    };
  }

  /** The chat is idle (waiting for the user): pings follow the last reply, if any are left. */
  start(): void {
    this.cancel?.();
    this.cancel = null;
    if (this.options.pings <= 0 || this.last === null || this.sent >= this.options.pings) return;
    this.cancel = this.options.timers.after(this.options.intervalMs, () => void this.ping());
  }

  /** The user typed: no more pings until the next reply. */
  stop(): void {
    this.cancel?.();
    this.cancel = null;
    this.sent = this.options.pings;
  }

  private async ping(): Promise<void> {
    const last = this.last;
    if (!last || !this.client || this.cancel === null) return;
    this.sent++;
    const n = this.sent;
    const result = await this.client.chat({ model: last.model, messages: last.messages, stablePrefix: last.stablePrefix, stream: false, maxTokens: 1 });
    if (result.usage) this.options.totals().addPing(result.usage);
    // The user may have typed while the ping was on its way: then nothing more is scheduled.
    if (this.cancel === null) return;
    if (!result.ok) {
      this.cancel = null;
      this.sent = this.options.pings;
      this.options.onPing(n, this.options.pings, null, result.error.message);
      return;
    }
    this.options.onPing(n, this.options.pings, result.usage);
    this.cancel = n < this.options.pings ? this.options.timers.after(this.options.intervalMs, () => void this.ping()) : null;
  }
}
