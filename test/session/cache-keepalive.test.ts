// Cache keep-alive with the timers port faked: N pings at the interval, each with the last request's
// messages byte for byte (through the real client to the scripted server, cache marks and all), one
// output token, none once the user types, and their cost in the session's totals.
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../../src/model/openai-client.js';
import { lookupModelSettings } from '../../src/model/model-settings.js';
import { requestRules } from '../../src/model/model-profile.js';
import type { ChatMessage } from '../../src/model/types.js';
import type { Timers } from '../../src/platform/timers.js';
import { CacheKeepAlive, KEEPALIVE_INTERVAL_MS } from '../../src/session/cache-keepalive.js';
import { SessionTotals } from '../../src/session/totals.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';

/** Timers that fire only when the test says so; `delays` records every wait asked for. */
class FakeTimers implements Timers {
  readonly delays: number[] = [];
  private pending: { run: () => void; cancelled: boolean }[] = [];
  after(ms: number, run: () => void): () => void {
    this.delays.push(ms);
    const entry = { run, cancelled: false };
    this.pending.push(entry);
    return () => {
      entry.cancelled = true;
    };
  }
  /** Fires what is due now (every live timer), as the clock reaching it would. */
  fire(): number {
    const due = this.pending.filter((p) => !p.cancelled);
    this.pending = [];
    for (const p of due) p.run();
    return due.length;
  }
  get live(): number {
    return this.pending.filter((p) => !p.cancelled).length;
  }
}

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MODEL = 'anthropic/claude-sonnet-4';
const messages: ChatMessage[] = [
  { role: 'system', content: 'You edit code. \u00e9\u00e8 emoji \u{1F600}' },
  { role: 'user', content: 'Here is the map' },
  { role: 'assistant', content: 'Ok.' },
  { role: 'user', content: 'Rename x.' },
];

async function setUp(pings: number) {
  const usage = { prompt_tokens: 1000, completion_tokens: 1, cached_tokens: 900 };
  server = await startFakeOpenAI({ fallback: textReply('x', { usage }) });
  const baseURL = server.url;
  const client = createOpenAIClient({ baseURL, apiKey: 'k', maxRetries: 0, rules: (m) => requestRules(lookupModelSettings(m), { baseURL }) });
  const timers = new FakeTimers();
  const totals = new SessionTotals();
  const notes: string[] = [];
  const waiters: (() => void)[] = [];
  const onPing = (n: number, of: number): void => {
    notes.push(`${n}/${of}`);
    for (const wake of waiters.splice(0)) wake();
  };
  const keepAlive = new CacheKeepAlive({ pings, intervalMs: KEEPALIVE_INTERVAL_MS, timers, totals: () => totals, onPing });
  const chat = keepAlive.wrap(client);
  /** Resolves once `count` pings have come back (each one's next timer is then set). */
  const settle = async (count: number): Promise<void> => {
    while (notes.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { chat, timers, totals, notes, keepAlive, settle };
}

describe('cache keep-alive', () => {
  it('sends N pings at the interval with the last request byte for byte, one output token each', async () => {
    const { chat, timers, totals, notes, keepAlive, settle } = await setUp(3);
    const result = await chat.chat({ model: MODEL, messages, stream: true, stablePrefix: 3 });
    expect(result.ok).toBe(true);
    keepAlive.start();
    for (let n = 1; n <= 3; n++) {
      expect(timers.fire()).toBe(1);
      await settle(n);
    }
    expect(timers.live).toBe(0);
    expect(timers.fire()).toBe(0);
    expect(timers.delays).toEqual([KEEPALIVE_INTERVAL_MS, KEEPALIVE_INTERVAL_MS, KEEPALIVE_INTERVAL_MS]);
    const [first, ...pings] = server!.chatRequests();
    expect(pings).toHaveLength(3);
    for (const ping of pings) {
      expect(JSON.stringify(ping.body.messages)).toBe(JSON.stringify(first!.body.messages));
      expect(ping.body.max_tokens).toBe(1);
      expect(ping.body.model).toBe(MODEL);
    }
    // Anthropic's cache marks stay where they were.
    expect(JSON.stringify(first!.body.messages)).toContain('cache_control');
    expect(notes).toEqual(['1/3', '2/3', '3/3']);
    expect(totals.pings).toBe(3);
    expect(totals.pingCost).toBeGreaterThan(0);
    expect(totals.cost).toBeCloseTo(totals.pingCost!, 10);
  });

  it('stops when the user types, and starts again only after the next reply', async () => {
    const { chat, timers, keepAlive, settle } = await setUp(3);
    await chat.chat({ model: MODEL, messages, stream: false, stablePrefix: 3 });
    keepAlive.start();
    timers.fire();
    await settle(1);
    keepAlive.stop(); // a line arrived
    expect(timers.fire()).toBe(0);
    keepAlive.start(); // idle again, but no new reply: nothing
    expect(timers.fire()).toBe(0);
    expect(server!.chatRequests()).toHaveLength(2);
    await chat.chat({ model: MODEL, messages: [...messages, { role: 'user', content: 'more' }], stream: false, stablePrefix: 3 });
    keepAlive.start();
    expect(timers.fire()).toBe(1);
    await settle(2);
    const last = server!.chatRequests().at(-1)!;
    expect(last.body.messages.at(-1)).toMatchObject({ content: [{ text: 'more' }] });
  });

  it('never pings for requests that are not the chat (commit messages), nor with 0 pings', async () => {
    const { chat, timers, keepAlive } = await setUp(2);
    await chat.chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'write a commit message' }], stream: false });
    keepAlive.start();
    expect(timers.fire()).toBe(0);
    const none = await setUp(0);
    await none.chat.chat({ model: MODEL, messages, stream: false, stablePrefix: 3 });
    none.keepAlive.start();
    expect(none.timers.fire()).toBe(0);
  });
});
