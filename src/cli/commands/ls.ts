// /ls: the files in the chat, the read-only files, web pages and images.
import type { SlashCommand } from './types.js';

export const lsCommand: SlashCommand = {
  name: 'ls',
  summary: 'list the files in the chat',
  usage: '/ls',
  async run(_args, ctx) {
    const { chatFiles, readOnlyFiles } = ctx.session;
    const { webPages, images } = ctx.session.context;
    if (chatFiles.length === 0 && readOnlyFiles.length === 0 && webPages.length === 0 && images.length === 0) {
      ctx.print('No files in the chat. Add some with /add FILE.\n');
      return {};
    }
    if (chatFiles.length > 0) ctx.print(`Files in the chat:\n${chatFiles.map((f) => `  ${f}\n`).join('')}`);
    if (readOnlyFiles.length > 0) ctx.print(`Read-only:\n${readOnlyFiles.map((f) => `  ${f.name}\n`).join('')}`);
    if (webPages.length > 0) ctx.print(`Web pages:\n${webPages.map((p) => `  ${p.url}\n`).join('')}`);
    if (images.length > 0) ctx.print(`Images:\n${images.map((i) => `  ${i.name}\n`).join('')}`);
    return {};
  },
};
