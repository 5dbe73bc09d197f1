// /ask, /code and /architect: with text, one request in that mode; without, switch the chat's mode.
import type { ChatMode } from '../../session/session.js';
import type { SlashCommand } from './types.js';

const DESCRIPTIONS: Readonly<Record<ChatMode, string>> = {
  ask: 'discuss the code; the model makes no edits',
  code: 'ask for changes; the model edits the files (the default)',
  architect: 'the main model plans, the editor model turns the plan into edits',
};

function modeCommand(mode: ChatMode): SlashCommand {
  return {
    name: mode,
    summary: `${DESCRIPTIONS[mode]}; with text, one request in this mode`,
    usage: `/${mode} [TEXT]  (without TEXT: switch to ${mode} mode for the following requests)`,
    async run(args, ctx) {
      const text = args.trim();
      if (text !== '') return { request: text, mode };
      ctx.session.setMode(mode);
      ctx.print(`Switched to ${mode} mode: ${DESCRIPTIONS[mode]}.\n`);
      return {};
    },
  };
}

export const askCommand = modeCommand('ask');
export const codeCommand = modeCommand('code');
export const architectCommand = modeCommand('architect');
