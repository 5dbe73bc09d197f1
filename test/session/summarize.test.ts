import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest, ModelClient } from '../../src/model/types.js';
import { summarizeHistory, summaryCut } from '../../src/session/summarize.js';

const count = (text: string): number => text.split(' ').length;
const tokens = { count };
const turn = (n: number, words: number): ChatMessage[] => [
  { role: 'user', content: `question ${n}` },
  { role: 'assistant', content: `answer ${n} ${'w '.repeat(words)}`.trim() },
];

function scriptedClient(text: string, seen: ChatRequest[]): ModelClient {
  return {
    async chat(request) {
      seen.push(request);
      return { ok: true, text, usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0, cost: null }, finishReason: 'stop' };
    },
  };
}

describe('history summaries', () => {
  it('cuts whole turns from the start and always keeps the last turn', () => {
    const history = [...turn(1, 100), ...turn(2, 100), ...turn(3, 100)];
    expect(summaryCut(history, tokens, 150, 1)).toBe(4);
    expect(summaryCut(history, tokens, 10_000, 1)).toBe(0);
    expect(summaryCut(turn(1, 1000), tokens, 10, 1)).toBe(0);
  });

  it('asks the weak model for a summary of the old turns only, and replaces them', async () => {
    const seen: ChatRequest[] = [];
    const history = [...turn(1, 100), ...turn(2, 100), ...turn(3, 10)];
    const result = await summarizeHistory(history, {
      client: scriptedClient('we did things', seen),
      model: 'weak',
      systemPrompt: 'summarize',
      summaryTemplate: 'Earlier: {summary}',
      ack: 'Ok.',
      tokens,
      budget: 150,
    });
    expect(result?.replaced).toBe(4);
    expect(result?.messages[0]?.content).toBe('Earlier: we did things');
    expect(seen[0]?.model).toBe('weak');
    expect(seen[0]?.messages[1]?.content).toContain('question 1');
    expect(seen[0]?.messages[1]?.content).not.toContain('question 3');
  });

  it('does nothing when the history fits', async () => {
    const seen: ChatRequest[] = [];
    const options = { client: scriptedClient('x', seen), model: 'w', systemPrompt: '', summaryTemplate: '{summary}', ack: 'Ok.', tokens, budget: 1000 };
    expect(await summarizeHistory(turn(1, 5), options)).toBeNull();
    expect(seen).toHaveLength(0);
  });
});
