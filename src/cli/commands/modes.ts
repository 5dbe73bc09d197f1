// /ask, /code, /architect, /context and /chat-mode: with text, one request in that mode; without, switch
// the chat's mode. The modes and what each does come from the coder registry (coders/registry.ts).
import { CODERS, type ChatModeInfo } from '../../coders/registry.js';
import type { SlashCommand } from './types.js';

const MODES: readonly ChatModeInfo[] = CODERS.chatModes;
const NAMES = MODES.map((m) => m.name);

function modeCommand({ name, description }: ChatModeInfo): SlashCommand {
  return {
    name,
    summary: `${description}; with text, one request in this mode`,
    usage: `/${name} [TEXT]  (without TEXT: switch to ${name} mode for the following requests)`,
    async run(args, ctx) {
      const text = args.trim();
      if (text !== '') return { request: text, mode: name };
      ctx.session.setMode(name);
      ctx.print(`Switched to ${name} mode: ${description}.\n`);
      return {};
    },
  };
}

/** /ask, /code, /architect, /context: one command per chat mode. */
export const modeCommands: readonly SlashCommand[] = MODES.map(modeCommand);

/** /chat-mode [MODE]: the one place every mode is named; the per-mode commands are its shortcuts. */
export const chatModeCommand: SlashCommand = {
  name: 'chat-mode',
  summary: `show or switch the chat mode (${NAMES.join(', ')})`,
  usage: `/chat-mode [${NAMES.join('|')}]`,
  async run(args, ctx) {
    const wanted = args.trim();
    if (wanted === '') {
      const lines = MODES.map((m) => `  ${m.name === ctx.session.mode ? '*' : ' '} ${m.name.padEnd(10)}${m.description}\n`);
      ctx.print(`Chat mode: ${ctx.session.mode}\n${lines.join('')}`);
      return {};
    }
    const mode = MODES.find((m) => m.name === wanted);
    if (!mode) {
      ctx.print(`No chat mode ${JSON.stringify(wanted)}: choose one of ${NAMES.join(', ')}.\n`);
      return { status: 'error' };
    }
    ctx.session.setMode(mode.name);
    ctx.print(`Switched to ${mode.name} mode: ${mode.description}.\n`);
    return {};
  },
};
