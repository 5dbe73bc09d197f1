// /lint: run the lint commands on the chat files; failures go to the model.
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
    for (const command of ctx.lintCommands) {
      const result = await ctx.runShell(`${command} ${files.map(quote).join(' ')}`);
      if (result.exitCode !== 0) failures.push(`$ ${command}\n${result.output}`);
    }
    if (failures.length === 0) {
      ctx.print('Lint passed.\n');
      return {};
    }
    ctx.print(`${failures.join('\n')}\n`);
    return { request: `Lint failed:\n\n${failures.join('\n\n')}\n\nFix these problems.` };
  },
};

function quote(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}
