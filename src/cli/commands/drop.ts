// /drop [FILE...]: take files out of the chat, editable or read-only (all of them without arguments).
import { escapeControlChars } from '../../platform/control-chars.js';
import { isAbsolute, resolve } from 'node:path';
import { splitArgs, toRepoPath } from './file-args.js';
import type { SlashCommand } from './types.js';

export const dropCommand: SlashCommand = {
  name: 'drop',
  summary: 'remove files, web pages and images from the chat (all without arguments)',
  usage: '/drop [FILE|URL...]',
  completesPaths: 'chat',
  async run(args, ctx) {
    const words = splitArgs(args);
    if (words.length === 0) {
      const count = ctx.session.dropAllChatFiles() + ctx.session.dropAllReadOnlyFiles() + ctx.session.context.dropAll();
      ctx.print(`Dropped ${count} file(s) from the chat.\n`);
      return {};
    }
    for (const typed of words) {
      const path = toRepoPath(ctx.root, ctx.cwd, typed).path;
      const absolutePath = isAbsolute(typed) ? typed : resolve(ctx.cwd, typed);
      if (path !== null && ctx.session.dropChatFile(path)) {
        ctx.print(`Dropped ${escapeControlChars(path)}.\n`);
        continue;
      }
      if (ctx.session.context.dropWebPage(typed)) {
        ctx.print(`Dropped ${escapeControlChars(typed)}.\n`);
        continue;
      }
      if ((path !== null && ctx.session.context.dropImage(path)) || ctx.session.context.dropImage(absolutePath)) {
        ctx.print(`Dropped image ${escapeControlChars(path ?? typed)}.\n`);
        continue;
      }
      const readOnly = (path !== null && ctx.session.dropReadOnlyFile(path)) || ctx.session.dropReadOnlyFile(absolutePath) || ctx.session.dropReadOnlyFile(typed);
      ctx.print(readOnly ? `Dropped read-only ${escapeControlChars(path ?? typed)}.\n` : `${escapeControlChars(typed)} is not in the chat.\n`);
    }
    return {};
  },
};
