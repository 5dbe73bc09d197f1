// /exit: leave tandem.
import type { SlashCommand } from './types.js';

export const exitCommand: SlashCommand = {
  name: 'exit',
  summary: 'leave tandem (Ctrl-D works too)',
  usage: '/exit',
  async run() {
    return { exit: true };
  },
};

export const quitCommand: SlashCommand = { ...exitCommand, name: 'quit', summary: 'leave tandem (same as /exit)', usage: '/quit' };
