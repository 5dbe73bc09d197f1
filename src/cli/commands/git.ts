// /git ARGS: run a git command in the repository.
import type { SlashCommand } from './types.js';

export const gitCommand: SlashCommand = {
  name: 'git',
  summary: 'run a git command',
  usage: '/git ARGS',
  async run(args, ctx) {
    if (!ctx.git) {
      ctx.print('This folder is not a git repository.\n');
      return { status: 'error' };
    }
    const result = await ctx.git.raw(args);
    ctx.print(result.output.endsWith('\n') || result.output === '' ? result.output : `${result.output}\n`);
    return result.exitCode === 0 ? {} : { status: 'error' };
  },
};
