// What /add (and the files named on the command line) may put in the chat: exact files, globs, folders
// (the files git knows below them, confirmed above a count), missing files (offered to be created);
// images go in as images, other binary files are refused, and a file that alone would fill half the context window asks first.
import { closeSync, mkdirSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { escapeControlChars } from '../../platform/control-chars.js';
import { readConfinedText } from '../../platform/text-files.js';
import { writesInside } from '../state-dir.js';
import { addImageFile, isImageFile } from './add-image.js';
import { isGlob, matchGlob } from './glob.js';
import { toRepoPath } from './file-args.js';
import type { CommandContext } from './types.js';

/** Folders with more files than this ask before adding them all. */
const FOLDER_CONFIRM_COUNT = 25;

type AddContext = Pick<CommandContext, 'session' | 'root' | 'cwd' | 'print' | 'confirm' | 'canAsk' | 'model' | 'tokens' | 'listFiles'> & {
  /** Say "Added X" for each file (at start-up only problems are worth a line). */
  readonly announce?: boolean;
};

/** Adds every file the typed words name; returns the paths added. */
export async function addFiles(words: readonly string[], ctx: AddContext): Promise<string[]> {
  const added: string[] = [];
  let repoFiles: readonly string[] | null = null;
  const files = async (): Promise<readonly string[]> => (repoFiles ??= await ctx.listFiles());
  for (const typed of words) {
    const resolved = toRepoPath(ctx.root, ctx.cwd, typed);
    if (!resolved.path) {
      ctx.print(`Cannot add ${escapeControlChars(typed)}: ${resolved.problem}.\n`);
      continue;
    }
    const path = resolved.path;
    const kind = kindOf(resolve(ctx.root, path));
    if (kind === 'file') {
      if (await addOne(path, ctx)) added.push(path);
      continue;
    }
    if (kind === 'folder' || isGlob(typed)) {
      const matched = kind === 'folder' ? (await files()).filter((f) => f.startsWith(`${path}/`)) : matchGlob(path, await files());
      added.push(...(await addMany(typed, matched, kind === 'folder', ctx)));
      continue;
    }
    if (kind === 'other') {
      ctx.print(`Cannot add ${escapeControlChars(typed)}: not a regular file.\n`);
      continue;
    }
    if (await offerToCreate(typed, path, ctx)) added.push(path);
  }
  return added;
}

async function addMany(typed: string, matched: readonly string[], folder: boolean, ctx: AddContext): Promise<string[]> {
  if (matched.length === 0) {
    ctx.print(folder ? `No files git knows under ${escapeControlChars(typed)}.\n` : `No files match ${escapeControlChars(typed)}.\n`);
    return [];
  }
  if (matched.length > FOLDER_CONFIRM_COUNT) {
    const answer = await ctx.confirm(`Add all ${matched.length} files ${folder ? 'under' : 'matching'} ${typed}?`, 'add-file', typed);
    if (answer !== 'yes') {
      ctx.print(`Not adding the files of ${escapeControlChars(typed)}.\n`);
      return [];
    }
  }
  const added: string[] = [];
  for (const path of matched) if (await addOne(path, ctx)) added.push(path);
  return added;
}

async function addOne(path: string, ctx: AddContext): Promise<boolean> {
  if (ctx.session.chatFiles.includes(path)) {
    ctx.print(`${escapeControlChars(path)} is already in the chat.\n`);
    return false;
  }
  const full = resolve(ctx.root, path);
  // An image (by its bytes) is context for the model, never an editable file.
  if (isImageFile(full, ctx.root)) return addImageFile(path, full, ctx.root, ctx);
  // Confined like every read: inside the repository after symlinks, a regular file, under the size cap.
  const read = readConfinedText(full, { root: ctx.root, shown: path });
  if (!read.ok) {
    ctx.print(`Cannot add ${escapeControlChars(path)}: ${read.message}.\n`);
    return false;
  }
  const binary = binaryReason(full);
  if (binary) {
    ctx.print(`Cannot add ${escapeControlChars(path)}: ${binary}.\n`);
    return false;
  }
  const half = Math.floor(ctx.model.contextWindow / 2);
  // Bytes / 2 is a generous upper bound on tokens; only a file that might be large is counted.
  if (read.size / 2 > half) {
    const tokens = ctx.tokens.count(read.text);
    // Nobody to ask (headless): the file goes in, and the send-time check stops a request that cannot fit.
    if (tokens > half && ctx.canAsk) {
      const question = `${path} is about ${tokens} tokens, more than half the context window (${ctx.model.contextWindow}). Add it anyway?`;
      if ((await ctx.confirm(question, 'oversized-request')) !== 'yes') {
        ctx.print(`Not adding ${escapeControlChars(path)}.\n`);
        return false;
      }
    }
  }
  // A file is editable or read-only, never both: adding it for editing takes it out of the read-only list.
  const wasReadOnly = ctx.session.dropReadOnlyFile(path) || ctx.session.dropReadOnlyFile(full);
  ctx.session.addChatFile(path);
  if (ctx.announce !== false) ctx.print(wasReadOnly ? `Moved ${escapeControlChars(path)} from read-only to editable in the chat.\n` : `Added ${escapeControlChars(path)} to the chat.\n`);
  return true;
}

async function offerToCreate(typed: string, path: string, ctx: AddContext): Promise<boolean> {
  // Headless this is answered by --yes-always, or is unanswerable (and says so).
  const answer = await ctx.confirm(`No file ${path}. Create it?`, 'create-file', path);
  if (answer !== 'yes') {
    ctx.print(answer === 'unanswerable' ? `Cannot add ${escapeControlChars(typed)}: no such file.\n` : `Not adding ${escapeControlChars(typed)}.\n`);
    return false;
  }
  const full = resolve(ctx.root, path);
  // A folder on the way may be a link the repository planted: the new file must land inside it.
  if (!writesInside(ctx.root, full)) {
    ctx.print(`Cannot create ${escapeControlChars(path)}: its folder leads outside the repository.\n`);
    return false;
  }
  try {
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, '', { flag: 'wx' });
  } catch (error) {
    ctx.print(`Cannot create ${escapeControlChars(path)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.\n`);
    return false;
  }
  ctx.session.addChatFile(path);
  ctx.print(`Created ${escapeControlChars(path)} and added it to the chat.\n`);
  return true;
}

function kindOf(full: string): 'file' | 'folder' | 'missing' | 'other' {
  try {
    const stat = statSync(full);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'folder' : 'other';
  } catch {
    return 'missing';
  }
}

/** Why a file is not text the model can read, or null: NUL bytes in its first 8 KiB (UTF-16 aside). */
function binaryReason(full: string): string | null {
  const head = Buffer.alloc(8192);
  let read = 0;
  try {
    const fd = openSync(full, 'r');
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return `cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  const bytes = head.subarray(0, read);
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  return !utf16 && bytes.includes(0) ? 'it is a binary file, not text' : null;
}
