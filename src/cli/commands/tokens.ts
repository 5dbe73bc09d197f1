// /tokens: what the next request will hold, part by part, the room left in the context window, and how
// much of the prompts so far the server's cache served.
import { countParts } from '../../coders/messages.js';
import type { SessionTotals } from '../../session/totals.js';
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
        `  ${'room left'.padEnd(width)}${String(room).padStart(8)} of ${ctx.model.contextWindow}\n` +
        cachedShare(ctx.session.totals, width) +
        pingShare(ctx.session.totals, width),
    );
    return {};
  },
};

/** "  keep-alive  2 pings, $0.0012": the cache keep-alive pings so far, whose tokens and cost are in the totals. */
function pingShare(totals: SessionTotals, width: number): string {
  if (totals.pings === 0) return '';
  const cost = totals.pingCost === null ? '' : `, $${totals.pingCost.toFixed(4)}`;
  return `  ${'keep-alive'.padEnd(width)}${String(totals.pings).padStart(8)} ping${totals.pings === 1 ? '' : 's'}${cost}\n`;
}

/** "  cached    1200 of 5000 prompt tokens so far (24%)", once the server has reported any usage. */
function cachedShare(totals: SessionTotals, width: number): string {
  if (totals.promptTokens === 0) return '';
  const percent = Math.round((100 * totals.cachedTokens) / totals.promptTokens);
  return `  ${'cached'.padEnd(width)}${String(totals.cachedTokens).padStart(8)} of ${totals.promptTokens} prompt tokens so far (${percent}%)\n`;
}
