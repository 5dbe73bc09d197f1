// /model, /weak-model and /editor-model: switch one of the session's models mid-chat, whole profile and
// all (context window, prices, tokenizer, edit format, reminder placement, temperature rule).
import type { ModelRole, Session } from '../../session/session.js';
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
      const changed = await ctx.session.setModel(role, model);
      const notice = changed.includes('main') ? ctx.reasoning?.noticeFor(ctx.session.profiles.get('main')) : null;
      ctx.print(describeSwitch(ctx.session, role, changed) + (notice ? `${notice}\n` : ''));
      return {};
    },
  };
}

export const mainModelCommand = modelCommand('main');
export const weakModelCommand = modelCommand('weak');
export const editorModelCommand = modelCommand('editor');

/** "The model is now X: context window 200,000 tokens, edit format diff. The weak model follows: Y." */
function describeSwitch(session: Session, role: ModelRole, changed: readonly ModelRole[]): string {
  const profile = session.profiles.get(role);
  const alias = profile.alias ? ` (alias ${profile.alias})` : '';
  const facts = [`context window ${profile.contextWindow.toLocaleString('en-US')} tokens`];
  if (role === 'main') facts.push(`edit format ${session.editFormat}`);
  if (role === 'editor') facts.push(`edit format ${session.editorFormat}`);
  if (!profile.settings.known) facts.push('not in the model settings, so defaults apply');
  const followers = changed.filter((r) => r !== role).map((r) => `the ${ROLES[r].name} follows: ${session.models[r]}`);
  const tail = followers.length > 0 ? ` ${capitalize(followers.join('; '))}.` : '';
  return `The ${ROLES[role].name} is now ${profile.name}${alias}: ${facts.join(', ')}.${tail}\n`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
