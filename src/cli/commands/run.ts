// /run CMD (and `!CMD`): run a shell command, its output shown as it arrives; Ctrl-C stops it. Then
// the output may go to the model, as Aider offers.
import { runShown } from './shown-run.js';
import type { SlashCommand } from './types.js';

export const runCommand: SlashCommand = {
  name: 'run',
  summary: 'run a shell command (or type !CMD); its output can be added to the chat',
  usage: '/run CMD  or  !CMD',
  async run(args, ctx) {
    const command = args.trim();
    if (!command) {
      ctx.print('Usage: /run CMD\n');
      return {};
    }
    const result = await runShown(ctx, command);
    const stopped = ctx.signal?.aborted === true;
    ctx.print(stopped ? '(stopped)\n' : `(exit code ${result.exitCode ?? 'none: killed'})\n`);
    if (!stopped && ctx.canAsk && result.output.trim() !== '') {
      const answer = await ctx.confirm('Add the output to the chat?', 'add-file', `output of: ${command}`);
      if (answer === 'yes') {
        ctx.session.addNote(`I ran this command:\n\n$ ${command}\n\nIts output (exit code ${result.exitCode ?? 'none'}):\n\n${result.output}`, 'I have seen the output.');
        ctx.print('Added the output to the chat.\n');
      }
    }
    if (stopped) return { status: 'interrupted' };
    return result.exitCode === 0 ? {} : { status: 'error' };
  },
};
