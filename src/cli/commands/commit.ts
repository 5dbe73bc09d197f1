// /commit [MESSAGE]: commit the user's own pending changes; without a message the weak model writes one.
// Changed tracked files are committed; untracked ones only when the user says yes (a build output in a
// repository without .gitignore is not work), and files git ignores never.
import type { CommandContext, CommandResult, SlashCommand } from './types.js';

export const commitCommand: SlashCommand = {
  name: 'commit',
  summary: 'commit your pending changes (asks before untracked files; the weak model writes the message unless you give one)',
  usage: '/commit [MESSAGE]',
  async run(args, ctx) {
    return commitPending(args.trim() || null, ctx);
  },
};

/** Shared by /commit and the one-shot --commit. */
export async function commitPending(typed: string | null, ctx: CommandContext): Promise<CommandResult> {
  if (!ctx.git) {
    ctx.print('Cannot commit: this folder is not a git repository.\n');
    return { status: 'error' };
  }
  const pending = await ctx.git.pendingFiles();
  const paths = [...pending.tracked, ...(await approvedUntracked(pending.untracked, ctx))];
  if (paths.length === 0) {
    ctx.print(pending.untracked.length > 0 ? 'Nothing committed: only untracked files, not approved.\n' : 'Nothing to commit: the work tree is clean.\n');
    return { status: 'error' };
  }
  const message = typed ?? (await ctx.commitMessage(await ctx.git.pendingDiff(paths)));
  const result = await ctx.git.commitPending(message, paths);
  ctx.print(`${result.message}${result.ok ? ` ${message}` : ''}\n`);
  const left = pending.untracked.filter((path) => !paths.includes(path));
  if (left.length > 0) ctx.print(`Left untracked: ${left.join(', ')}\n`);
  return result.ok ? {} : { status: 'error' };
}

async function approvedUntracked(untracked: readonly string[], ctx: CommandContext): Promise<string[]> {
  if (untracked.length === 0) return [];
  const shown = untracked.length > 5 ? `${untracked.slice(0, 5).join(', ')} and ${untracked.length - 5} more` : untracked.join(', ');
  const answer = await ctx.confirm(`Also commit ${untracked.length} untracked file(s): ${shown}?`, 'add-file');
  return answer === 'yes' ? [...untracked] : [];
}
