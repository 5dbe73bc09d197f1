// /settings: the effective configuration and where each value came from.
import type { SlashCommand } from './types.js';

export const settingsCommand: SlashCommand = {
  name: 'settings',
  summary: 'show the effective settings and where each value came from',
  usage: '/settings  (secrets are masked; values set nowhere show their default)',
  async run(_args, ctx) {
    ctx.print(ctx.settingsReport());
    return {};
  },
};
