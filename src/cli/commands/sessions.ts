// /sessions (and --sessions): the saved sessions of this repository, newest last, each with its date,
// its first request and its files, for --resume ID.
import { join } from 'node:path';
import { listSessions, readSessionLog, sessionsDir } from '../../session/session-log.js';
import { createStateReader, type StateReader } from '../../platform/state-files.js';
import type { SlashCommand } from './types.js';

export interface SessionSummary {
  readonly id: string;
  /** ISO time the session started, when its log says. */
  readonly created: string | null;
  readonly firstRequest: string | null;
  readonly files: readonly string[];
  readonly interactive: boolean;
}

export const sessionsCommand: SlashCommand = {
  name: 'sessions',
  summary: 'list saved sessions (resume one with tandem --resume ID)',
  async run(_args, ctx) {
    ctx.print(formatSessionList(summarizeSessions(ctx.root, ctx.stateReader)));
    return {};
  },
};

export function summarizeSessions(root: string, reader: StateReader = createStateReader(root)): SessionSummary[] {
  return listSessions(root, reader).map((id) => summarize(root, id, reader));
}

function summarize(root: string, id: string, reader: StateReader): SessionSummary {
  const blank: SessionSummary = { id, created: null, firstRequest: null, files: [], interactive: true };
  let entries;
  try {
    entries = readSessionLog(join(sessionsDir(root), `${id}.jsonl`), reader).entries;
  } catch {
    return blank;
  }
  const meta = entries.find((e) => e.type === 'meta');
  const first = entries.find((e) => e.type === 'message' && e.role === 'user');
  const lastFiles = [...entries].reverse().find((e) => e.type === 'files');
  const files = lastFiles?.type === 'files' ? [...lastFiles.chat, ...lastFiles.readOnly] : meta?.type === 'meta' ? [...meta.files, ...meta.readOnly] : [];
  return {
    id,
    created: meta?.type === 'meta' ? meta.created : null,
    firstRequest: first?.type === 'message' ? first.content : null,
    files,
    interactive: !(meta?.type === 'meta' && meta.interactive === false),
  };
}

export function formatSessionList(sessions: readonly SessionSummary[]): string {
  if (sessions.length === 0) return 'No saved sessions in this repository.\n';
  const rows = sessions.map((s) => {
    const when = s.created ? s.created.replace('T', ' ').slice(0, 16) : 'unknown date';
    const request = s.firstRequest ? oneLine(s.firstRequest, 60) : '(no request)';
    const files = s.files.length > 0 ? `\n      files: ${oneLine(s.files.join(' '), 70)}` : '';
    return `  ${s.id}  ${when}${s.interactive ? '' : '  (one-shot)'}\n      ${request}${files}\n`;
  });
  return `Saved sessions (newest last; resume with tandem --resume ID):\n${rows.join('')}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim().replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  return flat.length > max ? `${flat.slice(0, max - 1)}\u2026` : flat;
}
