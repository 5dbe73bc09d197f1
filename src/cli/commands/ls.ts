// /ls: the files in the chat, the read-only files, web pages and images, then the repository's other
// files (counted; a long list shows its first page, and /ls PATTERN narrows it).
import { escapeControlChars } from '../../platform/control-chars.js';
import { isGlob, matchGlob } from './glob.js';
import type { SlashCommand } from './types.js';

/** More other files than this show as a count and the first page. */
const PAGE = 50;

export const lsCommand: SlashCommand = {
  name: 'ls',
  summary: "list the chat files, read-only files and the repository's other files",
  usage: '/ls [GLOB|FOLDER]  (other files: the first 50 unless narrowed, e.g. /ls src/**/*.ts or /ls src)',
  async run(args, ctx) {
    const { chatFiles, readOnlyFiles } = ctx.session;
    const { webPages, images } = ctx.session.context;
    if (chatFiles.length > 0) ctx.print(`Files in the chat:\n${chatFiles.map((f) => `  ${escapeControlChars(f)}\n`).join('')}`);
    if (readOnlyFiles.length > 0) ctx.print(`Read-only:\n${readOnlyFiles.map((f) => `  ${escapeControlChars(f.name)}\n`).join('')}`);
    if (webPages.length > 0) ctx.print(`Web pages:\n${webPages.map((p) => `  ${escapeControlChars(p.url)}\n`).join('')}`);
    if (images.length > 0) ctx.print(`Images:\n${images.map((i) => `  ${escapeControlChars(i.name)}\n`).join('')}`);
    if (chatFiles.length === 0 && readOnlyFiles.length === 0 && webPages.length === 0 && images.length === 0) {
      ctx.print('No files in the chat. Add some with /add FILE.\n');
    }
    const inChat = new Set([...chatFiles, ...readOnlyFiles.map((f) => f.name), ...images.map((i) => i.name)]);
    const filter = args.trim();
    const all = (await ctx.listFiles()).filter((f) => !inChat.has(f));
    const others = filter === '' ? all : isGlob(filter) ? matchGlob(filter, all) : all.filter((f) => f === filter || f.startsWith(`${filter.replace(/\/+$/, '')}/`));
    if (others.length === 0) return {};
    const shown = others.slice(0, PAGE);
    const more = others.length > PAGE ? `  ... and ${others.length - PAGE} more (narrow with /ls GLOB or /ls FOLDER)\n` : '';
    ctx.print(`Other files in the repository (${others.length}):\n${shown.map((f) => `  ${escapeControlChars(f)}\n`).join('')}${more}`);
    return {};
  },
};
