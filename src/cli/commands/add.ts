// /add FILE...: put files in the chat so the model sees them in full and may edit them.
import { isExistingFile, splitArgs, toRepoPath } from './file-args.js';
import type { SlashCommand } from './types.js';

export const addCommand: SlashCommand = {
  name: 'add',
  summary: 'add files to the chat',
  usage: '/add FILE...  (paths relative to where tandem started)',
  completesPaths: true,
  async run(args, ctx) {
    const words = splitArgs(args);
    if (words.length === 0) {
      ctx.print('Usage: /add FILE...\n');
      return {};
    }
    for (const typed of words) {
      const resolved = toRepoPath(ctx.root, ctx.cwd, typed);
      if (!resolved.path) {
        ctx.print(`Cannot add ${typed}: ${resolved.problem}.\n`);
        continue;
      }
      if (!isExistingFile(ctx.root, resolved.path)) {
        ctx.print(`Cannot add ${typed}: no such file.\n`);
        continue;
      }
      const added = ctx.session.addChatFile(resolved.path);
      ctx.print(added ? `Added ${resolved.path} to the chat.\n` : `${resolved.path} is already in the chat.\n`);
    }
    return {};
  },
};
