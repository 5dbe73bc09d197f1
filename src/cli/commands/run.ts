// /run CMD: run a shell command; a failing one can be shared with the model.
import type { SlashCommand } from './types.js';

export const runCommand: SlashCommand = {
  name: 'run',
  summary: 'run a shell command and show its output',
  usage: '/run CMD',
  async run(args, ctx) {
    const command = args.trim();
    if (!command) {
      ctx.print('Usage: /run CMD\n');
      return {};
    }
    // Output is shown as it arrives; a long command is not a silent one.
    const result = await ctx.runShell(command, { onOutput: (text) => ctx.print(text) });
    if (result.output !== '' && !result.output.endsWith('\n')) ctx.print('\n');
    ctx.print(`(exit code ${result.exitCode ?? 'none: killed'})\n`);
    return result.exitCode === 0 ? {} : { status: 'error' };
  },
};
