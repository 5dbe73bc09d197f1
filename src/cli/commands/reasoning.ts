// /reasoning-effort, /think-tokens and /models: the chat's reasoning controls (sent in the form the model's
// settings accept, or a one-line notice that they are not), and the models the server and tandem know.
import type { ReasoningEffort } from '../../model/request-body.js';
import type { CommandContext, SlashCommand } from './types.js';

const EFFORTS: readonly ReasoningEffort[] = ['low', 'medium', 'high'];

export const reasoningEffortCommand: SlashCommand = {
  name: 'reasoning-effort',
  summary: 'show or set how hard a reasoning model thinks (low, medium, high; off)',
  usage: '/reasoning-effort [low|medium|high|off]  (without a value: show the current one)',
  async run(args, ctx) {
    const controls = ctx.reasoning;
    const value = args.trim().toLowerCase();
    if (!controls) return unavailable(ctx);
    if (value === '') {
      ctx.print(`Reasoning effort: ${controls.current.effort ?? "not set (the server's default)"}.\n`);
      return {};
    }
    if (value !== 'off' && !(EFFORTS as readonly string[]).includes(value)) {
      ctx.print('Usage: /reasoning-effort low|medium|high|off\n');
      return { status: 'error' };
    }
    controls.setEffort(value === 'off' ? null : (value as ReasoningEffort));
    ctx.print(`Reasoning effort is now ${value === 'off' ? "not set (the server's default)" : value}.\n${noticeLine(ctx)}`);
    return {};
  },
};

export const thinkTokensCommand: SlashCommand = {
  name: 'think-tokens',
  summary: 'show or set the thinking budget in tokens (0: none)',
  usage: '/think-tokens [N|0]  (8k and 1.5k work too; without a value: show the current one)',
  async run(args, ctx) {
    const controls = ctx.reasoning;
    if (!controls) return unavailable(ctx);
    const value = args.trim();
    if (value === '') {
      const tokens = controls.current.thinkingTokens;
      ctx.print(`Thinking budget: ${tokens ? `${tokens} tokens` : 'none'}.\n`);
      return {};
    }
    const tokens = parseTokenCount(value);
    if (tokens === null) {
      ctx.print('Usage: /think-tokens N (a whole number of tokens such as 2000 or 8k; 0 turns it off)\n');
      return { status: 'error' };
    }
    controls.setThinkingTokens(tokens === 0 ? null : tokens);
    ctx.print(`Thinking budget is now ${tokens === 0 ? 'none' : `${tokens} tokens`}.\n${noticeLine(ctx)}`);
    return {};
  },
};

export const modelsCommand: SlashCommand = {
  name: 'models',
  summary: 'list the models the server serves and tandem knows, with context window and prices',
  usage: '/models [SEARCH]',
  async run(args, ctx) {
    if (!ctx.listModels) return unavailable(ctx);
    ctx.print(await ctx.listModels(args.trim()));
    return {};
  },
};

/** `2000`, `8k`, `1.5k`, `1m`: a whole number of tokens, or null. */
export function parseTokenCount(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!match) return null;
  const scale = { '': 1, k: 1024, m: 1024 * 1024 }[(match[2] ?? '').toLowerCase()] ?? 1;
  const tokens = Math.round(Number(match[1]) * scale);
  return Number.isSafeInteger(tokens) ? tokens : null;
}

function noticeLine(ctx: CommandContext): string {
  const notice = ctx.reasoning?.noticeFor(ctx.session.profiles.get('main'));
  return notice ? `${notice}\n` : '';
}

function unavailable(ctx: CommandContext): { status: 'error' } {
  ctx.print('Not available here.\n');
  return { status: 'error' };
}
