// /test: run the test command, its output shown as it arrives (Ctrl-C stops it); on failure, its
// output goes to the model as the next request.
import { runShown } from './shown-run.js';
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
    const result = await runShown(ctx, ctx.testCommand);
    if (ctx.signal?.aborted) {
      ctx.print('(stopped)\n');
      return { status: 'interrupted' };
    }
    if (result.exitCode === 0) {
      ctx.print('Tests passed.\n');
      return {};
    }
    return { request: `The test command \`${ctx.testCommand}\` failed:\n\n${result.output}\n\nFix the code so the tests pass.` };
  },
};
