// /add FILE|FOLDER|GLOB...: put files in the chat so the model sees them in full and may edit them.
import { addFiles } from './add-files.js';
import { splitArgs, toRepoPath } from './file-args.js';
import type { SlashCommand } from './types.js';

export const addCommand: SlashCommand = {
  name: 'add',
  summary: 'add files to the chat (globs and folders too; offers to create a missing file)',
  usage: '/add FILE|FOLDER|GLOB...  (paths relative to where tandem started; a folder adds the files git knows below it)',
  completesPaths: true,
  async run(args, ctx) {
    const words = splitArgs(args);
    if (words.length === 0) {
      ctx.print('Usage: /add FILE|FOLDER|GLOB...\n');
      return {};
    }
    const added = await addFiles(words, ctx);
    // Nothing added and not everything already there: the command failed (a /load file stops here)
    const present = (word: string): boolean => ctx.session.chatFiles.includes(toRepoPath(ctx.root, ctx.cwd, word).path ?? '');
    return added.length > 0 || words.every(present) ? {} : { status: 'error' };
  },
};
