// /help [CMD]: every command with one line, or one command in full.
import type { SlashCommand } from './types.js';

export const helpCommand: SlashCommand = {
  name: 'help',
  summary: 'list commands, or explain one: /help CMD',
  usage: '/help [CMD]',
  async run(args, ctx) {
    const name = args.trim().replace(/^\//, '');
    if (name) {
      const command = ctx.commands.find((c) => c.name === name);
      if (!command) {
        ctx.print(`No command /${name}. Type /help for the list.\n`);
        return {};
      }
      ctx.print(`/${command.name}: ${command.summary}\nUsage: ${command.usage ?? `/${command.name}`}\n`);
      return {};
    }
    const width = Math.max(...ctx.commands.map((c) => c.name.length)) + 2;
    const lines = ctx.commands.map((c) => `  /${c.name.padEnd(width)}${c.summary}\n`);
    ctx.print(`Commands:\n${lines.join('')}Anything else is a request to the model.\n`);
    return {};
  },
};
