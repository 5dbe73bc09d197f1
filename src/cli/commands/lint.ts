// /lint [FILE...]: the built-in syntax check and the lint commands on the named files, else the chat
// files, else the files changed since HEAD; failures go to the model.
import { lintCommandsFor, parseLintCommands, pathArgument } from '../../checks/lint.js';
import { isExistingFile, splitArgs, toRepoPath } from './file-args.js';
import type { CommandContext, CommandResult, SlashCommand } from './types.js';

export const lintCommand: SlashCommand = {
  name: 'lint',
  summary: 'check files (syntax check, and each --lint-cmd): FILEs, else the chat files, else the changed files; failures go to the model',
  usage: '/lint [FILE...]  (the built-in syntax check, then each --lint-cmd)',
  completesPaths: true,
  async run(args, ctx) {
    const files = await filesToLint(splitArgs(args), ctx);
    if (files === null) return { status: 'error' };
    if (files.length === 0) {
      ctx.print('Nothing to lint: no files named, none in the chat, none changed since HEAD.\n');
      return {};
    }
    return lintFiles(files, ctx);
  },
};

async function filesToLint(words: readonly string[], ctx: CommandContext): Promise<string[] | null> {
  if (words.length > 0) {
    const paths: string[] = [];
    for (const word of words) {
      const resolved = toRepoPath(ctx.root, ctx.cwd, word);
      if (resolved.path === null) {
        ctx.print(`Cannot lint ${word}: ${resolved.problem}.\n`);
        return null;
      }
      paths.push(resolved.path);
    }
    return paths;
  }
  if (ctx.session.chatFiles.length > 0) return [...ctx.session.chatFiles];
  if (!ctx.git) return [];
  const pending = await ctx.git.pendingFiles();
  // A deleted file has nothing to check.
  return [...pending.tracked, ...pending.untracked].filter((path) => isExistingFile(ctx.root, path));
}

/** Lints `files` (repository-relative); shared with the one-shot --lint. */
export async function lintFiles(files: readonly string[], ctx: CommandContext): Promise<CommandResult> {
  const failures: string[] = [];
  for (const file of files) {
    const problems = await ctx.syntaxCheck(file);
    if (problems) failures.push(problems);
  }
  // "LANG: CMD" runs on that language's files only, like the lint after an edit
  const commands = parseLintCommands(ctx.lintCommands);
  for (const file of files) {
    for (const { command } of lintCommandsFor(file, commands)) {
      const line = `${command} ${pathArgument(file)}`;
      const result = await ctx.runShell(line, { signal: ctx.signal, lint: true });
      if (result.exitCode !== 0) failures.push(`$ ${line}\n${result.output}`);
    }
  }
  if (failures.length === 0) {
    const checked = `${files.length} file${files.length === 1 ? '' : 's'}`;
    ctx.print(ctx.lintCommands.length > 0 ? `Lint passed (${checked}).\n` : `Syntax check passed (${checked}; set --lint-cmd to run a linter too).\n`);
    return {};
  }
  ctx.print(`${failures.join('\n')}\n`);
  return { request: `Lint failed:\n\n${failures.join('\n\n')}\n\nFix these problems.` };
}
