// The files a session leaves in .tandem/: the JSONL log (created on first write, or continued on
// --resume) and the readable transcript chat.history.md.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeRepoPath } from '../edits/paths.js';
import type { Clock } from '../platform/clock.js';
import { createStateReader, readStateText, STATE_CAPS, type StateReader } from '../platform/state-files.js';
import { nodeFileSystem, type TextFileSystem } from '../platform/file-system.js';
import type { EmitEvent, SessionEvent } from '../session/events.js';
import { listSessions, newSessionId, readSessionLog, replaySession, SessionLog, sessionsDir, type LogEntry, type ReplayedSession, type SessionRecorder } from '../session/session-log.js';
import { describeFsError } from '../round/apply.js';
import { CliError } from './cli-error.js';
import { EXIT } from '../session/exit-codes.js';
import { isBelow } from '../platform/path-inside.js';

/** The chat's files as the log's first line describes them. */
export interface LoggedChat {
  readonly files: string[];
  readonly readOnly: string[];
}

/**
 * A recorder that creates its log file only when there is something to record. The first line's files
 * come from the entries themselves: the session records every change of its files, so until a `files`
 * entry arrives the chat has none, and when one is the first entry it says what the chat holds.
 */
export class LazySessionLog implements SessionRecorder {
  private log: SessionLog | null;
  private broken = false;

  constructor(
    private readonly root: string,
    private readonly meta: (chat: LoggedChat) => Extract<LogEntry, { type: 'meta' }>,
    existing: SessionLog | null = null,
    /** Told once when the log cannot be written (a full disk): the chat goes on without it. */
    private readonly onWriteError: (message: string) => void = () => {},
    private readonly fs: TextFileSystem = nodeFileSystem,
  ) {
    this.log = existing;
  }

  /** The session's id once its log exists (it is created on the first entry). */
  get id(): string | null {
    return this.log?.id ?? null;
  }

  record(entry: LogEntry): void {
    // After a failed write the log stops: lines missing in the middle would make it lie on resume.
    if (this.broken) return;
    try {
      this.log ??= SessionLog.create(sessionsDir(this.root), this.meta(chatOf(entry)), this.fs);
      this.log.record(entry);
    } catch (error) {
      this.broken = true;
      this.onWriteError(`Could not write the session log (${describeFsError(error)}); the rest of this session will not be saved for --resume.`);
    }
  }
}

type MetaEntry = Extract<LogEntry, { type: 'meta' }>;

/** The log's first line, stamped when it is written (a lazy log may start long after tandem did). */
export function sessionMetaOf(clock: Clock, fields: Pick<MetaEntry, 'version' | 'model' | 'editFormat' | 'interactive'>): (chat: LoggedChat) => MetaEntry {
  return (chat) => {
    const now = clock.now();
    return { type: 'meta', id: newId(now), created: now.toISOString(), ...fields, files: chat.files, readOnly: chat.readOnly };
  };
}

function chatOf(entry: LogEntry): LoggedChat {
  return entry.type === 'files' ? { files: [...entry.chat], readOnly: [...entry.readOnly] } : { files: [], readOnly: [] };
}

export interface ResumedSession extends ReplayedSession {
  readonly log: SessionLog;
  readonly notices: string[];
}

/** Opens `.tandem/sessions/<id>.jsonl` (the latest when id is 'latest'), repairing a torn last line. */
export function resumeSession(root: string, id: string, reader: StateReader = createStateReader(root)): ResumedSession {
  const ids = listSessions(root, reader);
  // The latest chat a person had, not a one-shot `-m` run made since; with none, the latest of any kind.
  const latest = (): string | undefined => [...ids].reverse().find((candidate) => wasInteractive(root, candidate, reader)) ?? ids.at(-1);
  const chosen = id === 'latest' ? latest() : ids.find((candidate) => candidate === id);
  if (!chosen) {
    const message = id === 'latest' ? 'no saved session to resume in this repository' : `no saved session with id ${id} (see tandem --sessions)`;
    throw new CliError(message, EXIT.usage);
  }
  const file = join(sessionsDir(root), `${chosen}.jsonl`);
  let read;
  try {
    read = readSessionLog(file, reader);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), EXIT.error);
  }
  const replayed = replaySession(read.entries);
  const notices = read.repaired ? [read.repaired] : [];
  // A log may be planted: every file it lists is checked again, as if the user had just added it.
  const refused = replayed.chatFiles.filter((path) => existsSync(join(root, path)) && !isPlainRepoFile(root, path));
  const missing = replayed.chatFiles.filter((path) => !refused.includes(path) && !existsSync(join(root, path)));
  if (missing.length > 0) notices.push(`These files of the session no longer exist and were left out: ${missing.join(', ')}.`);
  if (refused.length > 0) notices.push(`These files of the session are outside the repository or not regular files and were left out: ${refused.join(', ')}.`);
  return {
    ...replayed,
    chatFiles: replayed.chatFiles.filter((path) => !missing.includes(path) && !refused.includes(path)),
    log: SessionLog.continue(file),
    notices,
  };
}

/** A repository-relative name whose real path stays inside the repository and is a regular file. */
function isPlainRepoFile(root: string, path: string): boolean {
  const lexical = normalizeRepoPath(path, root);
  if (typeof lexical !== 'string') return false;
  try {
    const real = realpathSync(join(root, lexical));
    return isBelow(realpathSync(root), real) && statSync(real).isFile();
  } catch {
    return false;
  }
}

/** Reads only the log's first line (the meta entry): reading the whole log would repair it here. */
function wasInteractive(root: string, id: string, reader: StateReader): boolean {
  try {
    const [first = ''] = readStateText(reader, join(sessionsDir(root), `${id}.jsonl`), STATE_CAPS.sessionLog).split('\n', 1);
    const meta = JSON.parse(first) as { type?: unknown; interactive?: unknown };
    return !(meta.type === 'meta' && meta.interactive === false);
  } catch {
    // Unreadable here: resuming it by name reports why.
    return false;
  }
}

function newId(now: Date): string {
  return newSessionId(now, Math.random);
}

/**
 * Events worth keeping in the log besides the messages the session records itself; `user` (a request
 * starts), `waiting` (a model call starts) and `request_end` give `tandem trace` its step times.
 */
const LOGGED: ReadonlySet<SessionEvent['type']> = new Set(['user', 'waiting', 'edit', 'commit', 'reflection', 'usage', 'error', 'question', 'lint', 'test', 'request_end', 'result']);

/** A request's whole text is the log's next message already: its `user` event keeps only the start, for `tandem trace`. */
const USER_TEXT_KEPT = 300;

function loggedEvent(event: SessionEvent): Record<string, unknown> {
  return event.type === 'user' ? { ...event, text: event.text.slice(0, USER_TEXT_KEPT) } : { ...event };
}

/** Wraps the renderer so events also reach the session log and the transcript. */
export function recordingEmit(emit: EmitEvent, recorder: SessionRecorder, transcriptFile: string, clock: Clock, fs: TextFileSystem = nodeFileSystem): EmitEvent {
  let transcriptBroken = false;
  const transcript = (text: string): void => {
    if (transcriptBroken) return;
    try {
      fs.append(transcriptFile, text);
    } catch (error) {
      transcriptBroken = true;
      emit({ type: 'warning', message: `Could not write the transcript ${transcriptFile} (${describeFsError(error)}); the chat goes on without it.` });
    }
  };
  return (event) => {
    emit(event);
    if (LOGGED.has(event.type)) recorder.record({ type: 'event', time: clock.now().toISOString(), event: loggedEvent(event) });
    if (event.type === 'session') transcript(`\n# tandem session ${clock.now().toISOString()} (${event.model}, ${event.editFormat})\n`);
    if (event.type === 'user') transcript(`\n#### ${event.text.split('\n').join('\n     ')}\n\n`);
    if (event.type === 'assistant') transcript(`${event.text}${event.interrupted ? '\n\n(interrupted)' : ''}\n`);
    if (event.type === 'commit') transcript(`\n> Commit ${event.hash.slice(0, 7)} ${event.message}\n`);
    if (event.type === 'error') transcript(`\n> ${event.message}\n`);
  };
}
