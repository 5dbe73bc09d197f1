// /save FILE writes the chat's file set as slash commands; /load FILE (and --load FILE at start) runs a
// file of slash commands, stopping at the first one that fails and naming its line. A file inside the
// repository may have come with a clone: from it only commands that shape the chat run (no processes,
// no files outside the repository); a file of the user's own, outside the repository, runs any command.
import { realpathSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { readConfinedText } from '../../platform/text-files.js';
import { writesInside } from '../state-dir.js';
import { splitArgs } from './file-args.js';
import type { CommandContext, SlashCommand } from './types.js';
import { isWithin } from '../../platform/path-inside.js';

/** What a command file inside the repository may run: the chat's files and mode, nothing that runs or reaches out. */
const REPOSITORY_FILE_COMMANDS: ReadonlySet<string> = new Set(['add', 'drop', 'read-only', 'ls', 'chat-mode', 'ask', 'code', 'architect', 'context', 'clear', 'reset']);

/** A command file is a short list of lines; anything bigger (or /dev/zero) is refused before it is read. */
const MAX_LOAD_BYTES = 256 * 1024;

/** One argument as /add reads it back: quoted when it holds spaces or quotes. */
function quoteArg(name: string): string {
  if (!/[\s"']/.test(name)) return name;
  return name.includes('"') ? `'${name}'` : `"${name}"`;
}

/** A name /add could not read back (a newline, or both kinds of quote) is left out with a note. */
function unsavable(name: string): boolean {
  return /[\n\r]/.test(name) || (name.includes('"') && name.includes("'"));
}

/** The lines /save writes: `/drop` first so loading replaces the chat's files, then one command a file. */
export function saveLines(ctx: Pick<CommandContext, 'session' | 'root' | 'cwd'>): { lines: string[]; skipped: string[] } {
  // /add and /read-only resolve paths from where tandem started: write them that way.
  const shown = (repoPath: string): string => relative(ctx.cwd, join(ctx.root, repoPath)) || '.';
  const lines = ['/drop'];
  const skipped: string[] = [];
  const push = (command: string, name: string): void => {
    if (unsavable(name)) skipped.push(name);
    else lines.push(`${command} ${quoteArg(name)}`);
  };
  for (const file of ctx.session.chatFiles) push('/add', shown(file));
  for (const file of ctx.session.readOnlyFiles) push('/read-only', isAbsolute(file.name) ? file.name : shown(file.name));
  // Web pages are fetched again on /load; images are read again from disk (never stored in the file).
  for (const page of ctx.session.context.webPages) push('/web', page.url);
  for (const image of ctx.session.context.images) push(isAbsolute(image.name) ? '/read-only' : '/add', isAbsolute(image.name) ? image.name : shown(image.name));
  return { lines, skipped };
}

export const saveCommand: SlashCommand = {
  name: 'save',
  summary: 'save the chat files, read-only files, web pages and images as commands that /load runs',
  usage: '/save FILE  (writes /drop, then /add, /read-only and /web lines; /load FILE or tandem --load FILE restores them)',
  completesPaths: true,
  async run(args, ctx) {
    const [file] = splitArgs(args);
    if (file === undefined) {
      ctx.print('Usage: /save FILE\n');
      return { status: 'error' };
    }
    const { lines, skipped } = saveLines(ctx);
    // A name inside the repository may be a link (or lie under a linked folder) the repository placed
    // there: the file lands inside it, as a plain file, or is not written.
    const target = resolve(ctx.cwd, file);
    const namesInside = isWithin(ctx.root, target);
    if (namesInside && !writesInside(ctx.root, target)) {
      ctx.print(`Cannot write ${file}: it is a link, or leads outside the repository.\n`);
      return { status: 'error' };
    }
    const header = '# tandem: the chat files, written by /save; run with /load FILE or tandem --load FILE';
    try {
      writeFileSync(target, `${[header, ...lines].join('\n')}\n`);
    } catch (error) {
      ctx.print(`Cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.\n`);
      return { status: 'error' };
    }
    for (const name of skipped) ctx.print(`Not saved (its name cannot be written as a command): ${JSON.stringify(name)}\n`);
    const outsideReadOnly = ctx.session.readOnlyFiles.some((f) => isAbsolute(f.name));
    if (outsideReadOnly && isInside(ctx.root, realPathOf(dirname(resolve(ctx.cwd, file))))) {
      ctx.print('Note: /load of a file inside the repository does not add read-only files from outside it; save outside the repository to keep them.\n');
    }
    ctx.print(`Saved ${lines.length - 1} command(s) to ${file}.\n`);
    return {};
  },
};

/** The registry's lookup of a typed line (passed in: the registry lists this command, so no import back). */
export type FindCommand = (
  line: string,
  commands: readonly SlashCommand[],
) => { kind: 'command'; command: SlashCommand; args: string } | { kind: 'unknown'; message: string } | { kind: 'request' };

export function createLoadCommand(findCommand: FindCommand): SlashCommand {
  return {
    name: 'load',
    summary: 'run the slash commands in a file (stops at the first that fails)',
    usage: '/load FILE  (one command a line; blank lines and # comments are skipped)',
    completesPaths: true,
    async run(args, ctx) {
      const [file] = splitArgs(args);
      if (file === undefined) {
        ctx.print('Usage: /load FILE\n');
        return { status: 'error' };
      }
      const failure = await loadCommands(file, ctx, findCommand);
      if (failure === null) return {};
      ctx.print(`${failure}\n`);
      return { status: 'error' };
    },
  };
}

/** Runs FILE's commands in order; the failure as one line (naming the file and line), or null. */
export async function loadCommands(file: string, ctx: CommandContext, findCommand: FindCommand): Promise<string | null> {
  const full = resolve(ctx.cwd, file);
  const read = readConfinedText(full, { root: null, shown: file, maxBytes: MAX_LOAD_BYTES });
  if (!read.ok) return `Cannot load ${file}: ${read.message}.`;
  // Named inside the repository, or leading into it: a link the clone placed may point at any file, even
  // one another user left in /tmp, so either way it is the repository's.
  const named = relative(ctx.root, full);
  const fromRepository = isInside(ctx.root, realPathOf(full)) || (!named.startsWith('..') && !isAbsolute(named));
  const lines = read.text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const where = `${file}:${index + 1}`;
    const problem = await runLoadedLine(line, ctx, findCommand, fromRepository);
    if (problem !== null) return `${where}: ${problem}; stopped there (${JSON.stringify(line)})`;
  }
  return null;
}

async function runLoadedLine(line: string, ctx: CommandContext, findCommand: FindCommand, fromRepository: boolean): Promise<string | null> {
  const lookup = findCommand(line, ctx.commands);
  if (lookup.kind === 'request') return 'not a slash command (a file for /load holds only commands)';
  if (lookup.kind === 'unknown') return lookup.message;
  if (fromRepository) {
    const refusal = repositoryFileRefusal(lookup.command.name, lookup.args, ctx);
    if (refusal !== null) return refusal;
  }
  // One file does not load another: no loops, and what runs is what the file shows.
  if (lookup.command.name === 'load') return '/load inside a loaded file is not run';
  const result = await lookup.command.run(lookup.args, ctx);
  if (result.request !== undefined) return `/${lookup.command.name} would send a request to the model, which /load does not do`;
  if (result.exit) return `/${lookup.command.name} would leave the chat`;
  if (result.status !== undefined && result.status !== 'completed') return `/${lookup.command.name} failed`;
  return null;
}

/** Why a line of a command file inside the repository is not run, or null. */
function repositoryFileRefusal(name: string, args: string, ctx: CommandContext): string | null {
  const keep = 'keep a file of your own commands outside the repository';
  if (!REPOSITORY_FILE_COMMANDS.has(name)) return `/${name} is not run from a file inside the repository (it may have come with a clone; ${keep})`;
  // A mode command with text would send a request: that is refused below, like any request
  if (name !== 'read-only') return null;
  const outside = splitArgs(args).find((word) => !isInside(ctx.root, realPathOf(resolve(ctx.cwd, word))));
  return outside === undefined ? null : `/read-only ${outside} lies outside the repository, which a file inside it may not name (${keep})`;
}

function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isInside(root: string, path: string): boolean {
  return isWithin(realPathOf(root), path);
}
