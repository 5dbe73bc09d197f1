// /test [CMD]: run CMD (else the test command), its output shown as it arrives (Ctrl-C stops it); on failure, its
// output goes to the model as the next request.
import { runShown } from './shown-run.js';
import type { SlashCommand } from './types.js';

export const testCommand: SlashCommand = {
  name: 'test',
  summary: 'run CMD, else the test command (--test-cmd); failures go to the model',
  usage: '/test [CMD]  (without CMD: runs --test-cmd)',
  async run(args, ctx) {
    const command = args.trim() || ctx.testCommand;
    if (!command) {
      ctx.print('No test command: give one (/test CMD) or set --test-cmd.\n');
      return { status: 'error' };
    }
    const result = await runShown(ctx, command);
    if (ctx.signal?.aborted) {
      ctx.print('(stopped)\n');
      return { status: 'interrupted' };
    }
    if (result.exitCode === 0) {
      ctx.print('Tests passed.\n');
      return {};
    }
    return { request: `The test command \`${command}\` failed:\n\n${result.output}\n\nFix the code so the tests pass.` };
  },
};
