// /model, /weak-model and /editor-model: switch one of the session's models mid-chat.
import type { ModelRole } from '../../session/session.js';
import type { SlashCommand } from './types.js';

const ROLES: Readonly<Record<ModelRole, { readonly name: string; readonly what: string }>> = {
  main: { name: 'model', what: 'the main model (plans in architect mode, edits otherwise)' },
  weak: { name: 'weak-model', what: 'the weak model (commit messages, history summaries)' },
  editor: { name: 'editor-model', what: 'the editor model (turns architect plans into edits)' },
};

function modelCommand(role: ModelRole): SlashCommand {
  const { name, what } = ROLES[role];
  return {
    name,
    summary: `show or switch ${what}`,
    usage: `/${name} [NAME]  (without NAME: show the current one)`,
    async run(args, ctx) {
      const model = args.trim();
      if (model === '') {
        ctx.print(`The ${name} is ${ctx.session.models[role]}.\n`);
        return {};
      }
      if (/\s/.test(model)) {
        ctx.print(`Usage: /${name} NAME (one model name, no spaces)\n`);
        return { status: 'error' };
      }
      await ctx.session.setModel(role, model);
      ctx.print(`The ${name} is now ${model}.\n`);
      return {};
    },
  };
}

export const mainModelCommand = modelCommand('main');
export const weakModelCommand = modelCommand('weak');
export const editorModelCommand = modelCommand('editor');
