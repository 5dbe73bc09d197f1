// /help [CMD]: every command with one line, or one command in full. /help QUESTION asks the model,
// with tandem's own documentation (shipped in the package) as its only context.
import type { CommandContext, CommandResult, SlashCommand } from './types.js';
import { fillPlaceholders } from '../../platform/placeholders.js';

export const helpCommand: SlashCommand = {
  name: 'help',
  summary: 'list commands, explain one (/help CMD), or ask about tandem (/help QUESTION)',
  usage: '/help [CMD|QUESTION]  (a question goes to the model with tandem\'s documentation)',
  async run(args, ctx) {
    const name = args.trim().replace(/^\//, '');
    // Several words, or one ending in `?`, are a question (`/help subtree?`); one word is a command.
    if (/\s|\?$/.test(name)) return answerQuestion(args.trim(), ctx);
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

/** Several words are a question: the main model answers it from the docs, outside the chat's history. */
async function answerQuestion(question: string, ctx: CommandContext): Promise<CommandResult> {
  if (!ctx.askOnce || !ctx.tandemDocs || !ctx.helpPrompt) {
    ctx.print('Cannot answer questions here: no model is set up.\n');
    return { status: 'error' };
  }
  const commands = ctx.commands.map((c) => `/${c.name}: ${c.summary} (usage: ${c.usage ?? `/${c.name}`})`).join('\n');
  const docs = `${await ctx.tandemDocs()}\n\n## Slash commands\n\n${commands}`;
  const template = await ctx.helpPrompt();
  const answer = await ctx.askOnce(fillPlaceholders(template, { docs }), question);
  if (!answer.ok) {
    ctx.print(`Could not answer: ${answer.message}\n`);
    return { status: 'error' };
  }
  ctx.print(`${answer.text.trim()}\n`);
  return {};
}
