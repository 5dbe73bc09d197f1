// /commit [MESSAGE]: commit the user's own pending changes; without a message the weak model writes one.
import type { SlashCommand } from './types.js';

export const commitCommand: SlashCommand = {
  name: 'commit',
  summary: 'commit your pending changes (the weak model writes the message unless you give one)',
  usage: '/commit [MESSAGE]',
  async run(args, ctx) {
    if (!ctx.git) {
      ctx.print('Cannot commit: this folder is not a git repository.\n');
      return { status: 'error' };
    }
    let message: string | null = args.trim() || null;
    if (message === null) {
      const diff = await ctx.git.pendingDiff();
      if (diff.trim() === '') {
        ctx.print('Nothing to commit: the work tree is clean.\n');
        return { status: 'error' };
      }
      message = await ctx.commitMessage(diff);
    }
    const result = await ctx.git.commitPending(message);
    ctx.print(`${result.message}${result.ok ? ` ${message}` : ''}\n`);
    return result.ok ? {} : { status: 'error' };
  },
};
