// The session log on disk: one JSON object a line, appended and flushed as things happen, so a crash
// loses at most the line being written. Opening a log repairs a torn last line and refuses a corrupt one.
import { basename, dirname, join } from 'node:path';
import { createStateReader, STATE_CAPS, type StateReader } from '../platform/state-files.js';
import type { ChatMessage } from '../model/types.js';
import { nodeFileSystem, type FileSystem, type TextFileSystem } from '../platform/file-system.js';
import { logEntryProblem } from './log-entry-shape.js';
import { TandemError } from '../platform/errors.js';
import type { LayoutRecord, RestoredLayout } from './prompt-layout.js';

export type LogEntry =
  | {
      readonly type: 'meta';
      readonly id: string;
      readonly version: string;
      readonly created: string;
      readonly model: string;
      readonly editFormat: string;
      readonly files: string[];
      readonly readOnly: string[];
      /** false for one-shot and piped runs, which `--resume` without an id passes over. */
      readonly interactive?: boolean;
    }
  /** A request (user) carries `layout`: the message as sent and the file copies it gave the model. */
  | { readonly type: 'message'; readonly role: ChatMessage['role']; readonly content: string; readonly layout?: LayoutRecord }
  /** tandem added a note to the last reply (what became of its edits): the reply now reads `content`. */
  | { readonly type: 'amend'; readonly content: string }
  | { readonly type: 'files'; readonly chat: string[]; readonly readOnly: string[] }
  /** The first `replaced` history messages were replaced by `messages` (a summary and its acknowledgement). */
  | { readonly type: 'summary'; readonly messages: ChatMessage[]; readonly replaced: number }
  | { readonly type: 'clear' }
  /** `time`: when the event happened (ISO), for `tandem trace`; older logs have none. */
  | { readonly type: 'event'; readonly event: Record<string, unknown>; readonly time?: string }
  /** The chat's web pages (whole: the model saw them) and images (path and digest only, never the bytes). */
  | { readonly type: 'context'; readonly pages: LoggedPage[]; readonly images: LoggedImage[] };

export interface LoggedPage {
  readonly url: string;
  readonly text: string;
}

export interface LoggedImage {
  readonly name: string;
  readonly absolutePath: string;
  readonly digest: string;
}

export class SessionLogError extends TandemError {
  readonly kind = 'corrupt_log';
}

export interface SessionRecorder {
  record(entry: LogEntry): void;
}

/** `.tandem/sessions`, where the logs live. */
export function sessionsDir(root: string): string {
  return join(root, '.tandem', 'sessions');
}

/** A log file's name: sortable timestamp then a short random id, e.g. `20261130-061500-k3x9`. */
export function newSessionId(now: Date, random: () => number): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}-${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  const id = Math.floor(random() * 36 ** 4).toString(36).padStart(4, '0');
  return `${stamp}-${id}`;
}

export class SessionLog implements SessionRecorder {
  private constructor(
    readonly file: string,
    private readonly fs: TextFileSystem,
  ) {}

  /** The folder is made with the first line. */
  static create(dir: string, meta: Extract<LogEntry, { type: 'meta' }>, fs: TextFileSystem = nodeFileSystem): SessionLog {
    const log = new SessionLog(join(dir, `${meta.id}.jsonl`), fs);
    log.record(meta);
    return log;
  }

  /** Continues an existing log file (after `readSessionLog` checked and repaired it). */
  static continue(file: string, fs: TextFileSystem = nodeFileSystem): SessionLog {
    return new SessionLog(file, fs);
  }

  record(entry: LogEntry): void {
    this.fs.append(this.file, `${JSON.stringify(entry)}\n`);
  }

  get id(): string {
    return basename(this.file, '.jsonl');
  }
}

export interface ReadLogResult {
  readonly entries: LogEntry[];
  /** Set when a torn last line was dropped (and the file rewritten without it). */
  readonly repaired: string | null;
}

/** Reads a log; a torn last line is dropped and the file repaired; a corrupt line elsewhere throws. */
export function readSessionLog(file: string, reader: StateReader = createStateReader(rootOfLog(file)), fs: FileSystem = nodeFileSystem): ReadLogResult {
  const read = reader.read(file, STATE_CAPS.sessionLog);
  if (!read.ok) throw new SessionLogError(read.message);
  const text = read.data.toString('utf8');
  const lines = text.split('\n');
  const endsClean = text.endsWith('\n');
  if (endsClean) lines.pop();
  const entries: LogEntry[] = [];
  for (const [i, line] of lines.entries()) {
    const parsed = parseLine(line);
    if (parsed !== null && typeof parsed === 'object') {
      entries.push(parsed);
      continue;
    }
    // Valid JSON of the wrong shape is no torn write: name the line, change nothing.
    if (parsed !== null) throw new SessionLogError(`${file}:${i + 1}: ${parsed}; the session log was left as it is`);
    const isLast = i === lines.length - 1;
    if (!isLast) throw new SessionLogError(`${file}:${i + 1}: not a valid log line; the session log is corrupt and was left as it is`);
    const good = lines.slice(0, i).map((l) => `${l}\n`).join('');
    // The temp name is predictable: whatever sits there (a planted link to a file of the user's) is removed,
    // and the new file is created exclusively, so the write never follows a link out of the repository.
    const temp = `${file}.repair`;
    fs.rmSync(temp);
    fs.writeNewSync(temp, good);
    fs.renameSync(temp, file);
    return { entries, repaired: `Dropped a torn last line (line ${i + 1}) from ${basename(file)}, left by an interrupted write.` };
  }
  return { entries, repaired: null };
}

/** The entry; a string saying what is wrong with well-formed JSON of another shape; null for a line that is no JSON. */
function parseLine(line: string): LogEntry | string | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  return logEntryProblem(value) ?? (value as LogEntry);
}

/** `<root>` of a log at `<root>/.tandem/sessions/<id>.jsonl`. */
function rootOfLog(file: string): string {
  return dirname(dirname(dirname(file)));
}

/** Session ids, oldest first: only plain files (a planted link or FIFO, a log git tracks, is left out). */
function mtimeOf(fs: FileSystem, file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

export function listSessions(root: string, reader: StateReader = createStateReader(root), fs: FileSystem = nodeFileSystem): string[] {
  try {
    const ids = fs.readdirSync(sessionsDir(root))
      .filter((name) => name.endsWith('.jsonl') && reader.usable(join(sessionsDir(root), name)))
      .map((name) => basename(name, '.jsonl'));
    // An id tells the second a session started; two started in the same second (a fast script) are put in
    // the order they were last written, so "latest" is the one that ran last, not the one whose suffix sorts last.
    const second = (id: string): string => id.split('-').slice(0, 2).join('-');
    const written = new Map(ids.map((id) => [id, mtimeOf(fs, join(sessionsDir(root), `${id}.jsonl`))]));
    return ids.sort((a, b) => second(a).localeCompare(second(b)) || written.get(a)! - written.get(b)! || a.localeCompare(b));
  } catch {
    return [];
  }
}

export interface ReplayedSession {
  readonly meta: Extract<LogEntry, { type: 'meta' }> | null;
  readonly history: ChatMessage[];
  readonly chatFiles: string[];
  readonly readOnly: string[];
  readonly pages: LoggedPage[];
  readonly images: LoggedImage[];
  /** The conversation as the model last saw it, when the log describes it to its end (see LayoutReplay). */
  readonly layout: RestoredLayout | null;
}

/**
 * Replays the prompt layout beside the history: each logged request's message as sent, then its reply,
 * appended to the conversation the way the running chat did. Anything the log cannot vouch for (a
 * request logged without its layout, an unanswered one, a summary or /clear) leaves no layout, and the
 * resumed chat starts a new conversation, as before.
 */
class LayoutReplay {
  private conversation: ChatMessage[] | null = null;
  private files = new Map<string, string>();
  private sent: string | null = null;

  request(entry: Extract<LogEntry, { type: 'message' }>, history: readonly ChatMessage[]): void {
    const layout = entry.layout;
    this.sent = null;
    if (!layout) return this.drop();
    if (layout.rebuilt) {
      this.conversation = [...history];
      this.files = new Map();
    }
    if (this.conversation === null) return;
    for (const file of layout.files) this.files.set(file.path, file.text);
    this.sent = layout.sent;
  }

  reply(content: string): void {
    if (this.conversation === null || this.sent === null) return this.drop();
    this.conversation.push({ role: 'user', content: this.sent }, { role: 'assistant', content });
    this.sent = null;
  }

  amend(content: string): void {
    const last = this.conversation?.at(-1);
    if (this.conversation && last?.role === 'assistant') this.conversation[this.conversation.length - 1] = { ...last, content };
  }

  drop(): void {
    this.conversation = null;
    this.sent = null;
  }

  result(): RestoredLayout | null {
    if (this.conversation === null || this.sent !== null) return null;
    return { conversation: this.conversation, files: [...this.files].map(([path, text]) => ({ path, text })) };
  }
}

/** Rebuilds the chat a log describes. */
export function replaySession(entries: readonly LogEntry[]): ReplayedSession {
  let meta: ReplayedSession['meta'] = null;
  let history: ChatMessage[] = [];
  let chatFiles: string[] = [];
  let readOnly: string[] = [];
  let pages: LoggedPage[] = [];
  let images: LoggedImage[] = [];
  const layout = new LayoutReplay();
  for (const entry of entries) {
    switch (entry.type) {
      case 'meta':
        meta = entry;
        chatFiles = [...entry.files];
        readOnly = [...entry.readOnly];
        break;
      case 'message':
        if (entry.role === 'user') {
          if (closeUnanswered(history)) layout.drop();
          layout.request(entry, history);
        } else layout.reply(entry.content);
        history.push({ role: entry.role, content: entry.content });
        break;
      case 'amend': {
        const last = history.at(-1);
        if (last?.role === 'assistant') history[history.length - 1] = { ...last, content: entry.content };
        layout.amend(entry.content);
        break;
      }
      case 'files':
        chatFiles = [...entry.chat];
        readOnly = [...entry.readOnly];
        break;
      case 'summary':
        history = [...entry.messages, ...history.slice(entry.replaced)];
        layout.drop();
        break;
      case 'clear':
        history = [];
        layout.drop();
        break;
      case 'context':
        pages = [...entry.pages];
        images = [...entry.images];
        break;
      case 'event':
        break;
    }
  }
  if (closeUnanswered(history)) layout.drop();
  return { meta, history, chatFiles, readOnly, pages, images, layout: layout.result() };
}

/** Requests are logged before they are sent: one whose reply never came (an error, a crash) gets a note. */
const UNANSWERED_NOTE = '[no reply: the request failed or tandem stopped before the reply arrived]';

/** True when it added the note. */
function closeUnanswered(history: ChatMessage[]): boolean {
  if (history.at(-1)?.role !== 'user') return false;
  history.push({ role: 'assistant', content: UNANSWERED_NOTE });
  return true;
}
