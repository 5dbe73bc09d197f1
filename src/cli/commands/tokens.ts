// /tokens: what the next request will hold, part by part, and the room left in the context window.
import { countParts } from '../../coders/messages.js';
import type { SlashCommand } from './types.js';

export const tokensCommand: SlashCommand = {
  name: 'tokens',
  summary: 'show the tokens the next request will use, part by part',
  usage: '/tokens',
  async run(_args, ctx) {
    const parts = countParts(await ctx.session.buildRequest(''), ctx.tokens);
    const total = parts.reduce((sum, p) => sum + p.tokens, 0);
    const price = ctx.model.inputPricePerToken;
    const cost = (tokens: number): string => (price === null ? '' : `  $${(tokens * price).toFixed(4)}`);
    const width = Math.max(...parts.map((p) => p.name.length), 5) + 2;
    const rows = parts.map((p) => `  ${p.name.padEnd(width)}${String(p.tokens).padStart(8)}${cost(p.tokens)}\n`);
    const room = ctx.model.contextWindow - total;
    ctx.print(
      `${rows.join('')}  ${'total'.padEnd(width)}${String(total).padStart(8)}${cost(total)}\n` +
        `  ${'room left'.padEnd(width)}${String(room).padStart(8)} of ${ctx.model.contextWindow}\n`,
    );
    return {};
  },
};
