// /reset: drop every file (read-only ones, web pages and images too) and the whole history.
import type { SlashCommand } from './types.js';

export const resetCommand: SlashCommand = {
  name: 'reset',
  summary: 'drop all files and clear the chat history',
  async run(_args, ctx) {
    const count = ctx.session.dropAllChatFiles() + ctx.session.dropAllReadOnlyFiles() + ctx.session.context.dropAll();
    ctx.session.clearHistory();
    ctx.print(`Dropped ${count} file(s) and cleared the history.\n`);
    return {};
  },
};
