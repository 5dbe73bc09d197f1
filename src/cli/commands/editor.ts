// /editor [TEXT] (alias /edit): write the next message in the user's editor; the saved text is sent in
// the chat's mode. An empty file or an editor that fails sends nothing.
import type { SlashCommand } from './types.js';

export const editorCommand: SlashCommand = {
  name: 'editor',
  aliases: ['edit'],
  summary: 'write the next message in your editor ($VISUAL, $EDITOR or --editor); with TEXT, start from it',
  usage: '/editor [TEXT]  (the saved file is sent as your next message; an empty file sends nothing)',
  async run(args, ctx) {
    if (!ctx.chatInput) {
      ctx.print('/editor is not available here.\n');
      return {};
    }
    const outcome = await ctx.chatInput.openEditor(args.trim() === '' ? '' : `${args.trim()}\n`);
    if (!outcome.ok) {
      ctx.print(`${outcome.reason} Nothing sent.\n`);
      return {};
    }
    return { request: outcome.text };
  },
};
