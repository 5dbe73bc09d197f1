// /diff: what changed since the last request started.
import type { SlashCommand } from './types.js';

export const diffCommand: SlashCommand = {
  name: 'diff',
  summary: 'show the changes since the last request',
  usage: '/diff  (everything committed or changed since the last request started)',
  async run(_args, ctx) {
    if (!ctx.git) {
      ctx.print('No diff: this folder is not a git repository.\n');
      return {};
    }
    const since = ctx.session.lastRequestStartHash;
    if (since === undefined) {
      ctx.print('No changes since the last request (there has been no request yet).\n');
      return {};
    }
    const diff = await ctx.git.diffSince(since);
    ctx.print(diff.trim() === '' ? 'No changes since the last request.\n' : `${diff.trimEnd()}\n`);
    return {};
  },
};
