// Keeps the history inside its token budget: the oldest turns become one summary written by the weak
// model; the most recent turns stay verbatim.
import type { ChatMessage, ModelClient } from '../model/types.js';
import { fillPlaceholders } from '../platform/placeholders.js';
import type { TokenCounter } from '../platform/token-counter.js';

export interface SummarizeOptions {
  readonly client: ModelClient;
  readonly model: string;
  readonly systemPrompt: string;
  /** Template with `{summary}`: the user message that replaces the old turns. */
  readonly summaryTemplate: string;
  readonly ack: string;
  readonly tokens: TokenCounter;
  readonly budget: number;
  /** Turns (user + assistant pairs) always kept verbatim at the end. */
  readonly keepTurns?: number;
}

export interface SummaryResult {
  readonly messages: ChatMessage[];
  /** How many of the oldest history messages the summary replaces. */
  readonly replaced: number;
}

export function historyTokens(history: readonly ChatMessage[], tokens: TokenCounter): number {
  return history.reduce((sum, m) => sum + tokens.count(m.content) + 4, 0);
}

/** Where to cut: the oldest messages to summarize so the rest fits in half the budget (whole turns only). */
export function summaryCut(history: readonly ChatMessage[], tokens: TokenCounter, budget: number, keepTurns: number): number {
  const keepFrom = Math.max(0, history.length - keepTurns * 2);
  let cut = 0;
  let rest = historyTokens(history, tokens);
  while (cut < keepFrom && rest > budget / 2) {
    rest -= tokens.count(history[cut]!.content) + 4;
    rest -= history[cut + 1] ? tokens.count(history[cut + 1]!.content) + 4 : 0;
    cut += 2;
  }
  return Math.min(cut, keepFrom);
}

/** Returns the replacement for the oldest turns, or null when nothing needs (or could be) summarized. */
export async function summarizeHistory(history: readonly ChatMessage[], options: SummarizeOptions): Promise<SummaryResult | null> {
  // A byte-level BPE token is at least one byte: a history within budget-many bytes needs no counting.
  const bytes = history.reduce((sum, m) => sum + Buffer.byteLength(m.content, 'utf8'), 0);
  if (bytes <= options.budget) return null;
  if (historyTokens(history, options.tokens) <= options.budget) return null;
  const cut = summaryCut(history, options.tokens, options.budget, options.keepTurns ?? 1);
  if (cut === 0) return null;
  const transcript = history
    .slice(0, cut)
    .map((m) => `# ${m.role.toUpperCase()}\n${m.content}`)
    .join('\n\n');
  const result = await options.client.chat({
    model: options.model,
    stream: false,
    messages: [
      { role: 'system', content: options.systemPrompt },
      { role: 'user', content: transcript },
    ],
  });
  if (!result.ok || result.text.trim() === '') return null;
  const summary = fillPlaceholders(options.summaryTemplate, { summary: result.text.trim() });
  return {
    messages: [
      { role: 'user', content: summary },
      { role: 'assistant', content: options.ack },
    ],
    replaced: cut,
  };
}
