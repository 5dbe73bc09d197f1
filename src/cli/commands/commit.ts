// /commit [MESSAGE]: commit the user's own pending changes.
import type { SlashCommand } from './types.js';

export const commitCommand: SlashCommand = {
  name: 'commit',
  summary: 'commit your pending changes (message optional)',
  usage: '/commit [MESSAGE]',
  async run(args, ctx) {
    if (!ctx.git) {
      ctx.print('Cannot commit: this folder is not a git repository.\n');
      return { status: 'error' };
    }
    const result = await ctx.git.commitPending(args.trim() || null);
    ctx.print(`${result.message}\n`);
    return result.ok ? {} : { status: 'error' };
  },
};
