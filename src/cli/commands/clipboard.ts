// /paste, /copy and /copy-context: the system clipboard in the chat. An image on the clipboard is saved
// under .tandem/pastes/ (or NAME) and added like an image file; text joins the chat as a pasted block.
// /copy falls back to the terminal's own clipboard escape (OSC 52) where there is no display (SSH).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { withoutControlChars } from '../../context/plain-text.js';
import { MAX_IMAGE_BYTES } from '../../context/images.js';
import { fenceFor } from '../../coders/messages.js';
import { osc52 } from '../../platform/clipboard.js';
import { renderContext } from '../../context/chat-markdown.js';
import { addImageFile } from './add-image.js';
import { splitArgs, toRepoPath } from './file-args.js';
import { writesInside } from '../state-dir.js';
import type { CommandContext, SlashCommand } from './types.js';

export const pasteCommand: SlashCommand = {
  name: 'paste',
  summary: 'add the clipboard to the chat: an image (saved under .tandem/pastes/ or NAME) or text',
  usage: '/paste [NAME]  (an image is saved as NAME, a path inside the repository; text joins the chat as a pasted block)',
  async run(args, ctx) {
    if (!ctx.clipboard) return failed(ctx, 'Cannot paste: no clipboard here.');
    const image = await ctx.clipboard.readImage(MAX_IMAGE_BYTES);
    if (!image.ok) return failed(ctx, `Cannot paste: ${image.message}.`);
    if (image.value) return pasteImage(image.value, splitArgs(args)[0] ?? null, ctx);
    const text = await ctx.clipboard.readText();
    if (!text.ok) return failed(ctx, `Cannot paste: ${text.message}.`);
    const clean = withoutControlChars(text.value).trimEnd();
    if (clean.trim() === '') return failed(ctx, 'The clipboard is empty.');
    const fence = fenceFor(clean);
    ctx.session.addNote(`Text I pasted from the clipboard:\n\n${fence}\n${clean}\n${fence}`, 'Ok, I have the pasted text.');
    ctx.print(`Added ${clean.split('\n').length} line(s) of pasted text to the chat.\n`);
    return {};
  },
};

function pasteImage(bytes: Buffer, name: string | null, ctx: CommandContext): ReturnType<SlashCommand['run']> {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const path = name ? toRepoPath(ctx.root, ctx.cwd, name).path : `.tandem/pastes/paste-${stamp}.png`;
  if (!path) return failed(ctx, `Cannot paste as ${name}: it is outside the repository.`);
  const full = resolve(ctx.root, path);
  // A folder on the way may be a symlink out of the repository: the paste must land inside.
  if (!writesInside(ctx.root, full)) return failed(ctx, `Cannot paste as ${path}: it leads outside the repository.`);
  try {
    mkdirSync(dirname(full), { recursive: true });
    // Never over an existing file: a paste only ever creates.
    writeFileSync(full, bytes, { flag: 'wx' });
  } catch (error) {
    return failed(ctx, `Cannot save the pasted image as ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  ctx.print(`Saved the clipboard's image as ${path}.\n`);
  return Promise.resolve(addImageFile(path, full, ctx.root, ctx) ? {} : { status: 'error' });
}

export const copyCommand: SlashCommand = {
  name: 'copy',
  summary: 'copy the last reply to the clipboard',
  usage: '/copy',
  async run(_args, ctx) {
    const last = [...ctx.session.history].reverse().find((m) => m.role === 'assistant');
    if (!last) return failed(ctx, 'No reply to copy yet.');
    return copyText(last.content, 'the last reply', ctx);
  },
};

export const copyContextCommand: SlashCommand = {
  name: 'copy-context',
  summary: "copy the chat's context (instructions, files, map, last request) as Markdown for a web chat",
  usage: '/copy-context',
  async run(_args, ctx) {
    const request = [...ctx.session.history].reverse().find((m) => m.role === 'user')?.content ?? '';
    const built = await ctx.session.buildRequest(request);
    return copyText(renderContext(built.messages), 'the chat context', ctx);
  },
};

async function copyText(text: string, what: string, ctx: CommandContext): ReturnType<SlashCommand['run']> {
  if (!ctx.clipboard) return failed(ctx, 'Cannot copy: no clipboard here.');
  const written = await ctx.clipboard.writeText(text);
  if (written.ok) {
    ctx.print(`Copied ${what} to the clipboard (${text.length} characters).\n`);
    return {};
  }
  // No display (SSH): the terminal's own clipboard escape, which terminals and tmux relay.
  if (written.kind !== 'failed' && ctx.terminalEscape?.(osc52(text))) {
    ctx.print(`Copied ${what} through the terminal (OSC 52): ${written.message}.\n`);
    return {};
  }
  return failed(ctx, `Cannot copy: ${written.message}.`);
}

function failed(ctx: Pick<CommandContext, 'print'>, message: string): Promise<{ status: 'error' }> {
  ctx.print(`${message}\n`);
  return Promise.resolve({ status: 'error' });
}
