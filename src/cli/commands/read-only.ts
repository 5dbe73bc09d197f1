// /read-only FILE...: files the model sees but may not edit (taken out of the editable chat files).
import { escapeControlChars } from '../../platform/control-chars.js';
import { isAbsolute, resolve } from 'node:path';
import { addImageFile, isImageFile } from './add-image.js';
import { isExistingFile, splitArgs, toRepoPath } from './file-args.js';
import type { SlashCommand } from './types.js';

export const readOnlyCommand: SlashCommand = {
  name: 'read-only',
  summary: 'add files the model may read but not edit',
  usage: '/read-only FILE...  (paths relative to where tandem started; files outside the repository are allowed)',
  completesPaths: true,
  async run(args, ctx) {
    const words = splitArgs(args);
    if (words.length === 0) {
      ctx.print('Usage: /read-only FILE...\n');
      return {};
    }
    let failed = false;
    for (const typed of words) {
      const absolutePath = isAbsolute(typed) ? typed : resolve(ctx.cwd, typed);
      const inRepo = toRepoPath(ctx.root, ctx.cwd, typed).path;
      const exists = inRepo !== null ? isExistingFile(ctx.root, inRepo) : isExistingFile('/', absolutePath);
      if (!exists) {
        ctx.print(`Cannot add ${escapeControlChars(typed)}: no such file.\n`);
        failed = true;
        continue;
      }
      const name = inRepo ?? absolutePath;
      const root = inRepo !== null ? ctx.root : null;
      if (isImageFile(absolutePath, root)) {
        addImageFile(name, absolutePath, root, ctx);
        continue;
      }
      // A file is either editable or read-only, never both.
      if (inRepo !== null && ctx.session.chatFiles.includes(inRepo)) ctx.session.dropChatFile(inRepo);
      const added = ctx.session.addReadOnlyFile({ name, absolutePath });
      ctx.print(added ? `Added ${escapeControlChars(name)} to the chat as read-only.\n` : `${escapeControlChars(name)} is already read-only in the chat.\n`);
    }
    return failed ? { status: 'error' } : {};
  },
};
