// /clear: forget the conversation; the files stay in the chat.
import type { SlashCommand } from './types.js';

export const clearCommand: SlashCommand = {
  name: 'clear',
  summary: 'clear the chat history (files stay)',
  usage: '/clear  (the files stay in the chat)',
  async run(_args, ctx) {
    ctx.session.clearHistory();
    ctx.print('Chat history cleared.\n');
    return {};
  },
};
