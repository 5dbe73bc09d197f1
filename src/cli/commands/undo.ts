// /undo: revert tandem's last commit, only when it is safe (see git/undo).
import type { SlashCommand } from './types.js';

export const undoCommand: SlashCommand = {
  name: 'undo',
  summary: "revert tandem's last commit, if it is tandem's, unpushed and untouched since",
  usage: '/undo',
  async run(_args, ctx) {
    if (!ctx.git) {
      ctx.print('Nothing to undo: this folder is not a git repository.\n');
      return { status: 'error' };
    }
    const result = await ctx.git.undo();
    ctx.print(`${result.message}\n`);
    // The model must not believe its last change is still in the files.
    if (result.ok) ctx.session.addNote(`The user reverted your last change with /undo (${result.message}) Do not redo it unless asked.`, 'Understood.');
    return result.ok ? {} : { status: 'error' };
  },
};
