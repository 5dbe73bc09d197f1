// Tab completion for the prompt: slash command names, repository paths after the commands that take
// files, and identifiers from the repository map everywhere else.
import { listRepoFiles } from '../git/ls-files.js';
import { posixRelative } from '../platform/repo-path.js';

export interface CompletionSources {
  /** Command names without the slash. */
  readonly commands: readonly string[];
  /** Commands whose arguments are paths (`add`, `read-only`). */
  readonly pathCommands: ReadonlySet<string>;
  /** Commands whose arguments are files already in the chat (`drop`), completed from `chatFiles`. */
  readonly chatFileCommands?: ReadonlySet<string>;
  readonly chatFiles?: () => readonly string[];
  /** Repository files, relative to where the user types paths from. */
  readonly files: () => Promise<readonly string[]> | readonly string[];
  /** Names the repository map knows (functions, classes...). */
  readonly identifiers: () => Promise<readonly string[]> | readonly string[];
}

/** Readline's result: the candidates and the part of the line they replace. */
export type Completion = [string[], string];

/** The readline completer (callback form, since file listing may be asynchronous). */
function createCompleter(sources: CompletionSources): (line: string, callback: (error: Error | null, result: Completion) => void) => void {
  return (line, callback) => {
    completeLine(line, sources).then(
      (result) => callback(null, result),
      () => callback(null, [[], line]),
    );
  };
}

export async function completeLine(line: string, sources: CompletionSources): Promise<Completion> {
  const command = /^\/(\S*)$/.exec(line);
  if (command) return [finishUnique(matching(sources.commands.map((name) => `/${name}`), line)), line];
  const withArgs = /^\/(\S+)\s+(?:.*\s)?(\S*)$/.exec(line);
  const word = /(\S*)$/.exec(line)?.[1] ?? '';
  if (withArgs) {
    const name = resolveCommand(withArgs[1] ?? '', sources.commands);
    if (name !== null && sources.chatFileCommands?.has(name)) return [finishUnique(completePath(word, sources.chatFiles?.() ?? [])), word];
    if (name !== null && sources.pathCommands.has(name)) return [finishUnique(completePath(word, await sources.files())), word];
    if (name === 'help') return [matching(sources.commands, word), word];
  }
  if (word.length < 2) return [[], word];
  return [matching(unique(await sources.identifiers()), word).slice(0, 200), word];
}

/** Exact name first, then a unique prefix, as the command lookup does. */
function resolveCommand(typed: string, commands: readonly string[]): string | null {
  if (commands.includes(typed)) return typed;
  const prefixed = commands.filter((name) => name.startsWith(typed));
  return prefixed.length === 1 ? (prefixed[0] ?? null) : null;
}

/**
 * Files under the typed prefix, cut after the next folder: `s` offers `src/`, not every file below it,
 * so a large repository does not flood the screen.
 */
export function completePath(typed: string, files: readonly string[]): string[] {
  const candidates = new Set<string>();
  for (const file of files) {
    if (!file.startsWith(typed)) continue;
    const slash = file.indexOf('/', typed.length);
    candidates.add(slash < 0 ? file : file.slice(0, slash + 1));
  }
  return [...candidates].sort();
}

/** A single complete candidate gets its trailing space, ready for the next word (not a folder). */
function finishUnique(candidates: string[]): string[] {
  const only = candidates.length === 1 ? candidates[0] : undefined;
  return only !== undefined && !only.endsWith('/') ? [`${only} `] : candidates;
}

function matching(candidates: readonly string[], typed: string): string[] {
  return candidates.filter((candidate) => candidate.startsWith(typed)).sort();
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

export interface RepositoryCompleterOptions {
  readonly root: string;
  /** Where the user types paths from; completions are relative to it. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly commands: readonly { readonly name: string; readonly completesPaths?: boolean | 'chat' }[];
  /** The files in the chat (editable and read-only), as the user would type them. */
  readonly chatFiles?: () => readonly string[];
  readonly identifiers?: () => Promise<readonly string[]> | readonly string[];
  /** Tracked files, repository-relative; default `git ls-files` in `root`. */
  readonly listFiles?: () => Promise<readonly string[]>;
}

export function createRepositoryCompleter(options: RepositoryCompleterOptions): ReturnType<typeof createCompleter> {
  const listFiles = options.listFiles ?? (async () => (await listRepoFiles(options.root, options.env)) ?? []);
  return createCompleter({
    commands: options.commands.map((c) => c.name),
    pathCommands: new Set(options.commands.filter((c) => c.completesPaths === true).map((c) => c.name)),
    chatFileCommands: new Set(options.commands.filter((c) => c.completesPaths === 'chat').map((c) => c.name)),
    chatFiles: () => relativeTo(options.root, options.cwd, options.chatFiles?.() ?? []),
    files: async () => relativeTo(options.root, options.cwd, await listFiles()),
    identifiers: options.identifiers ?? (() => []),
  });
}

/** Repository-relative paths as seen from `cwd`; files above it are left out. */
export function relativeTo(root: string, cwd: string, files: readonly string[]): string[] {
  const prefix = posixRelative(root, cwd);
  if (prefix === '') return [...files];
  if (prefix.startsWith('..')) return [];
  return files.filter((f) => f.startsWith(`${prefix}/`)).map((f) => f.slice(prefix.length + 1));
}
