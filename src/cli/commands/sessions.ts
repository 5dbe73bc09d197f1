// /sessions: the saved sessions of this repository, newest last, for --resume ID.
import { listSessions } from '../../session/session-log.js';
import type { SlashCommand } from './types.js';

export const sessionsCommand: SlashCommand = {
  name: 'sessions',
  summary: 'list saved sessions (resume one with tandem --resume ID)',
  async run(_args, ctx) {
    ctx.print(formatSessionList(listSessions(ctx.root)));
    return {};
  },
};

export function formatSessionList(ids: readonly string[]): string {
  if (ids.length === 0) return 'No saved sessions in this repository.\n';
  return `Saved sessions (newest last; resume with tandem --resume ID):\n${ids.map((id) => `  ${id}\n`).join('')}`;
}
