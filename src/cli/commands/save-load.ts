// /save FILE writes the chat's file set as slash commands; /load FILE (and --load FILE at start) runs a
// file of slash commands, stopping at the first one that fails and naming its line.
import { writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { readConfinedText } from '../../platform/text-files.js';
import { splitArgs } from './file-args.js';
import type { CommandContext, SlashCommand } from './types.js';

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
export function saveLines(ctx: Pick<CommandContext, 'session' | 'root' | 'cwd' | 'savedContextLines'>): { lines: string[]; skipped: string[] } {
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
  lines.push(...(ctx.savedContextLines?.() ?? []));
  return { lines, skipped };
}

export const saveCommand: SlashCommand = {
  name: 'save',
  summary: 'save the chat files (and read-only files) as commands that /load runs',
  usage: '/save FILE  (writes /drop, then /add and /read-only lines; /load FILE or tandem --load FILE restores them)',
  completesPaths: true,
  async run(args, ctx) {
    const [file] = splitArgs(args);
    if (file === undefined) {
      ctx.print('Usage: /save FILE\n');
      return { status: 'error' };
    }
    const { lines, skipped } = saveLines(ctx);
    const header = '# tandem: the chat files, written by /save; run with /load FILE or tandem --load FILE';
    try {
      writeFileSync(resolve(ctx.cwd, file), `${[header, ...lines].join('\n')}\n`);
    } catch (error) {
      ctx.print(`Cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.\n`);
      return { status: 'error' };
    }
    for (const name of skipped) ctx.print(`Not saved (its name cannot be written as a command): ${JSON.stringify(name)}\n`);
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
  const read = readConfinedText(resolve(ctx.cwd, file), { root: null, shown: file, maxBytes: MAX_LOAD_BYTES });
  if (!read.ok) return `Cannot load ${file}: ${read.message}.`;
  const lines = read.text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const where = `${file}:${index + 1}`;
    const problem = await runLoadedLine(line, ctx, findCommand);
    if (problem !== null) return `${where}: ${problem}; stopped there (${JSON.stringify(line)})`;
  }
  return null;
}

async function runLoadedLine(line: string, ctx: CommandContext, findCommand: FindCommand): Promise<string | null> {
  const lookup = findCommand(line, ctx.commands);
  if (lookup.kind === 'request') return 'not a slash command (a file for /load holds only commands)';
  if (lookup.kind === 'unknown') return lookup.message;
  // One file does not load another: no loops, and what runs is what the file shows.
  if (lookup.command.name === 'load') return '/load inside a loaded file is not run';
  const result = await lookup.command.run(lookup.args, ctx);
  if (result.request !== undefined) return `/${lookup.command.name} would send a request to the model, which /load does not do`;
  if (result.exit) return `/${lookup.command.name} would leave the chat`;
  if (result.status !== undefined && result.status !== 'completed') return `/${lookup.command.name} failed`;
  return null;
}
