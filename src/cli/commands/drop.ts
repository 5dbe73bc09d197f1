// /drop [FILE...]: take files out of the chat (all of them without arguments).
import { splitArgs, toRepoPath } from './file-args.js';
import type { SlashCommand } from './types.js';

export const dropCommand: SlashCommand = {
  name: 'drop',
  summary: 'remove files from the chat (all without arguments)',
  usage: '/drop [FILE...]',
  completesPaths: true,
  async run(args, ctx) {
    const words = splitArgs(args);
    if (words.length === 0) {
      const count = ctx.session.dropAllChatFiles();
      ctx.print(`Dropped ${count} file(s) from the chat.\n`);
      return {};
    }
    for (const typed of words) {
      const path = toRepoPath(ctx.root, ctx.cwd, typed).path ?? typed;
      ctx.print(ctx.session.dropChatFile(path) ? `Dropped ${path}.\n` : `${typed} is not in the chat.\n`);
    }
    return {};
  },
};
