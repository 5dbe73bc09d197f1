// /test: run the test command; on failure, offer its output to the model as the next request.
import type { SlashCommand } from './types.js';

export const testCommand: SlashCommand = {
  name: 'test',
  summary: 'run the test command (--test-cmd); failures go to the model',
  usage: '/test  (runs --test-cmd)',
  async run(_args, ctx) {
    if (!ctx.testCommand) {
      ctx.print('No test command: set one with --test-cmd.\n');
      return {};
    }
    // Output is shown as it arrives; a long command is not a silent one.
    const result = await ctx.runShell(ctx.testCommand, { onOutput: (text) => ctx.print(text) });
    if (result.output !== '' && !result.output.endsWith('\n')) ctx.print('\n');
    if (result.exitCode === 0) {
      ctx.print('Tests passed.\n');
      return {};
    }
    return { request: `The test command \`${ctx.testCommand}\` failed:\n\n${result.output}\n\nFix the code so the tests pass.` };
  },
};
