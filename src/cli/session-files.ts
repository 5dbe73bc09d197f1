// The files a session leaves in .tandem/: the JSONL log (created on first write, or continued on
// --resume) and the readable transcript chat.history.md.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmitEvent, SessionEvent } from '../session/events.js';
import { listSessions, newSessionId, readSessionLog, replaySession, SessionLog, sessionsDir, type LogEntry, type ReplayedSession, type SessionRecorder } from '../session/session-log.js';
import { CliError, EXIT } from './exit-codes.js';

/** A recorder that creates its log file only when there is something to record. */
export class LazySessionLog implements SessionRecorder {
  private log: SessionLog | null;

  constructor(
    private readonly root: string,
    private readonly meta: () => Extract<LogEntry, { type: 'meta' }>,
    existing: SessionLog | null = null,
  ) {
    this.log = existing;
  }

  record(entry: LogEntry): void {
    this.log ??= SessionLog.create(sessionsDir(this.root), this.meta());
    this.log.record(entry);
  }
}

export interface ResumedSession extends ReplayedSession {
  readonly log: SessionLog;
  readonly notices: string[];
}

/** Opens `.tandem/sessions/<id>.jsonl` (the latest when id is 'latest'), repairing a torn last line. */
export function resumeSession(root: string, id: string): ResumedSession {
  const ids = listSessions(root);
  // The latest chat a person had, not a one-shot `-m` run made since; with none, the latest of any kind.
  const latest = (): string | undefined => [...ids].reverse().find((candidate) => wasInteractive(root, candidate)) ?? ids.at(-1);
  const chosen = id === 'latest' ? latest() : ids.find((candidate) => candidate === id);
  if (!chosen) {
    const message = id === 'latest' ? 'no saved session to resume in this repository' : `no saved session with id ${id} (see tandem --sessions)`;
    throw new CliError(message, EXIT.usage);
  }
  const file = join(sessionsDir(root), `${chosen}.jsonl`);
  let read;
  try {
    read = readSessionLog(file);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), EXIT.error);
  }
  const replayed = replaySession(read.entries);
  const notices = read.repaired ? [read.repaired] : [];
  const missing = replayed.chatFiles.filter((path) => !existsSync(join(root, path)));
  if (missing.length > 0) notices.push(`These files of the session no longer exist and were left out: ${missing.join(', ')}.`);
  return {
    ...replayed,
    chatFiles: replayed.chatFiles.filter((path) => !missing.includes(path)),
    log: SessionLog.continue(file),
    notices,
  };
}

/** Reads only the log's first line (the meta entry): reading the whole log would repair it here. */
function wasInteractive(root: string, id: string): boolean {
  try {
    const [first = ''] = readFileSync(join(sessionsDir(root), `${id}.jsonl`), 'utf8').split('\n', 1);
    const meta = JSON.parse(first) as { type?: unknown; interactive?: unknown };
    return !(meta.type === 'meta' && meta.interactive === false);
  } catch {
    // Unreadable here: resuming it by name reports why.
    return false;
  }
}

export function newId(now: Date): string {
  return newSessionId(now, Math.random);
}

/** Events worth keeping in the log besides the messages the session records itself. */
const LOGGED: ReadonlySet<SessionEvent['type']> = new Set(['edit', 'commit', 'reflection', 'usage', 'error', 'question', 'lint', 'test', 'result']);

/** Wraps the renderer so events also reach the session log and the transcript. */
export function recordingEmit(emit: EmitEvent, recorder: SessionRecorder, transcriptFile: string, now: () => Date): EmitEvent {
  let transcriptReady = false;
  const transcript = (text: string): void => {
    if (!transcriptReady) {
      mkdirSync(join(transcriptFile, '..'), { recursive: true });
      transcriptReady = true;
    }
    appendFileSync(transcriptFile, text);
  };
  return (event) => {
    emit(event);
    if (LOGGED.has(event.type)) recorder.record({ type: 'event', event: { ...event } });
    if (event.type === 'session') transcript(`\n# tandem session ${now().toISOString()} (${event.model}, ${event.editFormat})\n`);
    if (event.type === 'user') transcript(`\n#### ${event.text.split('\n').join('\n     ')}\n\n`);
    if (event.type === 'assistant') transcript(`${event.text}${event.interrupted ? '\n\n(interrupted)' : ''}\n`);
    if (event.type === 'commit') transcript(`\n> Commit ${event.hash.slice(0, 7)} ${event.message}\n`);
    if (event.type === 'error') transcript(`\n> ${event.message}\n`);
  };
}
