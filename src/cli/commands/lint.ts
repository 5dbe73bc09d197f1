// /lint: the built-in syntax check and the lint commands on the chat files; failures go to the model.
import { lintCommandsFor, parseLintCommands, pathArgument } from '../../checks/lint.js';
import type { SlashCommand } from './types.js';

export const lintCommand: SlashCommand = {
  name: 'lint',
  summary: 'check the chat files (syntax check, and each --lint-cmd); failures go to the model',
  usage: '/lint  (the built-in syntax check, then each --lint-cmd, on the chat files)',
  async run(_args, ctx) {
    const files = ctx.session.chatFiles;
    if (files.length === 0) {
      ctx.print('No files in the chat to lint.\n');
      return {};
    }
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
      ctx.print(ctx.lintCommands.length > 0 ? 'Lint passed.\n' : 'Syntax check passed (set --lint-cmd to run a linter too).\n');
      return {};
    }
    ctx.print(`${failures.join('\n')}\n`);
    return { request: `Lint failed:\n\n${failures.join('\n\n')}\n\nFix these problems.` };
  },
};
