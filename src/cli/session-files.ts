// The files a session leaves in .tandem/: the JSONL log (created on first write, or continued on
// --resume) and the readable transcript chat.history.md.
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EmitEvent, SessionEvent } from '../session/events.js';
import { listSessions, newSessionId, readSessionLog, replaySession, SessionLog, sessionsDir, type LogEntry, type ReplayedSession, type SessionRecorder } from '../session/session-log.js';
import { describeFsError } from '../edits/apply.js';
import { CliError, EXIT } from './exit-codes.js';

/** A recorder that creates its log file only when there is something to record. */
export class LazySessionLog implements SessionRecorder {
  private log: SessionLog | null;
  private broken = false;

  constructor(
    private readonly root: string,
    private readonly meta: () => Extract<LogEntry, { type: 'meta' }>,
    existing: SessionLog | null = null,
    /** Told once when the log cannot be written (a full disk): the chat goes on without it. */
    private readonly onWriteError: (message: string) => void = () => {},
  ) {
    this.log = existing;
  }

  record(entry: LogEntry): void {
    // After a failed write the log stops: lines missing in the middle would make it lie on resume.
    if (this.broken) return;
    try {
      this.log ??= SessionLog.create(sessionsDir(this.root), this.meta());
      this.log.record(entry);
    } catch (error) {
      this.broken = true;
      this.onWriteError(`Could not write the session log (${describeFsError(error)}); the rest of this session will not be saved for --resume.`);
    }
  }
}

export interface ResumedSession extends ReplayedSession {
  readonly log: SessionLog;
  readonly notices: string[];
}

/** Opens `.tandem/sessions/<id>.jsonl` (the latest when id is 'latest'), repairing a torn last line. */
export function resumeSession(root: string, id: string): ResumedSession {
  const ids = listSessions(root);
  const chosen = id === 'latest' ? ids.at(-1) : ids.find((candidate) => candidate === id);
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

export function newId(now: Date): string {
  return newSessionId(now, Math.random);
}

/** Events worth keeping in the log besides the messages the session records itself. */
const LOGGED: ReadonlySet<SessionEvent['type']> = new Set(['edit', 'commit', 'reflection', 'usage', 'error', 'question', 'lint', 'test', 'result']);

/** Wraps the renderer so events also reach the session log and the transcript. */
export function recordingEmit(emit: EmitEvent, recorder: SessionRecorder, transcriptFile: string, now: () => Date): EmitEvent {
  let transcriptReady = false;
  let transcriptBroken = false;
  const transcript = (text: string): void => {
    if (transcriptBroken) return;
    try {
      if (!transcriptReady) {
        mkdirSync(join(transcriptFile, '..'), { recursive: true });
        transcriptReady = true;
      }
      appendFileSync(transcriptFile, text);
    } catch (error) {
      transcriptBroken = true;
      emit({ type: 'warning', message: `Could not write the transcript .tandem/chat.history.md (${describeFsError(error)}); the chat goes on without it.` });
    }
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
