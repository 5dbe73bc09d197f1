// /lint: run the lint commands on the chat files; failures go to the model.
import { lintCommandsFor, parseLintCommands, pathArgument } from '../../checks/lint.js';
import type { SlashCommand } from './types.js';

export const lintCommand: SlashCommand = {
  name: 'lint',
  summary: 'lint the chat files (--lint-cmd); failures go to the model',
  usage: '/lint  (runs each --lint-cmd on the chat files)',
  async run(_args, ctx) {
    if (ctx.lintCommands.length === 0) {
      ctx.print('No lint command: set one with --lint-cmd.\n');
      return {};
    }
    const files = ctx.session.chatFiles;
    if (files.length === 0) {
      ctx.print('No files in the chat to lint.\n');
      return {};
    }
    const failures: string[] = [];
    // "LANG: CMD" runs on that language's files only, like the lint after an edit
    const commands = parseLintCommands(ctx.lintCommands);
    for (const file of files) {
      for (const { command } of lintCommandsFor(file, commands)) {
        const line = `${command} ${pathArgument(file)}`;
        const result = await ctx.runShell(line);
        if (result.exitCode !== 0) failures.push(`$ ${line}\n${result.output}`);
      }
    }
    if (failures.length === 0) {
      ctx.print('Lint passed.\n');
      return {};
    }
    ctx.print(`${failures.join('\n')}\n`);
    return { request: `Lint failed:\n\n${failures.join('\n\n')}\n\nFix these problems.` };
  },
};
