// /ask, /code and /architect: with text, one request in that mode; without, switch the chat's mode.
import type { ChatMode } from '../../session/session.js';
import type { SlashCommand } from './types.js';

const DESCRIPTIONS: Readonly<Record<ChatMode, string>> = {
  ask: 'discuss the code; the model makes no edits',
  code: 'ask for changes; the model edits the files (the default)',
  architect: 'the main model plans, the editor model turns the plan into edits',
  context: 'the model names the files a request needs and tandem offers to add them; no edits',
};

const MODES = Object.keys(DESCRIPTIONS) as ChatMode[];

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
export const contextCommand = modeCommand('context');

/** /chat-mode [MODE]: the one place every mode is named; the per-mode commands are its shortcuts. */
export const chatModeCommand: SlashCommand = {
  name: 'chat-mode',
  summary: `show or switch the chat mode (${MODES.join(', ')})`,
  usage: `/chat-mode [${MODES.join('|')}]`,
  async run(args, ctx) {
    const wanted = args.trim();
    if (wanted === '') {
      const lines = MODES.map((m) => `  ${m === ctx.session.mode ? '*' : ' '} ${m.padEnd(10)}${DESCRIPTIONS[m]}\n`);
      ctx.print(`Chat mode: ${ctx.session.mode}\n${lines.join('')}`);
      return {};
    }
    const mode = MODES.find((m) => m === wanted);
    if (!mode) {
      ctx.print(`No chat mode ${JSON.stringify(wanted)}: choose one of ${MODES.join(', ')}.\n`);
      return { status: 'error' };
    }
    ctx.session.setMode(mode);
    ctx.print(`Switched to ${mode} mode: ${DESCRIPTIONS[mode]}.\n`);
    return {};
  },
};
