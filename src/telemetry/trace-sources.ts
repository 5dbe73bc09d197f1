// What `tandem trace` reads: a session log and `.tandem/audit.jsonl`. Both may have come with a clone,
// so each is read through the confined reader (inside the repository, a regular file, not a link,
// size-capped) and line by line: a line that is not what tandem writes is skipped, never believed.
import { join } from 'node:path';
import { readConfinedText } from '../platform/text-files.js';
import type { Mark, TimedEvent } from './timeline.js';

/** A session log is at most this big for `tandem trace` (the same cap --resume uses). */
const MAX_LOG_BYTES = 256 * 1024 * 1024;
/** The audit log is read up to this size; a longer one is read from its start only. */
const MAX_AUDIT_BYTES = 16 * 1024 * 1024;

export interface LoggedSession {
  readonly model: string | null;
  readonly created: string | null;
  readonly events: TimedEvent[];
}

export type TraceRead<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** The timed events of a session log (entries of type `event`), with the request texts filled in. */
export function readSessionEvents(root: string, file: string, shown: string): TraceRead<LoggedSession> {
  const read = readConfinedText(file, { root, maxBytes: MAX_LOG_BYTES, shown, refuseLinks: true });
  if (!read.ok) return { ok: false, message: read.message };
  let model: string | null = null;
  let created: string | null = null;
  const events: TimedEvent[] = [];
  let awaitingText: Record<string, unknown> | null = null;
  for (const line of read.text.split('\n')) {
    const entry = parseObject(line);
    if (!entry) continue;
    if (entry['type'] === 'meta') {
      model = typeof entry['model'] === 'string' ? entry['model'] : model;
      created = typeof entry['created'] === 'string' ? entry['created'] : created;
    }
    // A request's text is logged as its first user message (older logs have no `user` event text).
    if (entry['type'] === 'message' && entry['role'] === 'user' && awaitingText && typeof entry['content'] === 'string') {
      if (awaitingText['text'] === undefined || awaitingText['text'] === '') awaitingText['text'] = entry['content'];
      awaitingText = null;
    }
    if (entry['type'] !== 'event') continue;
    const event = entry['event'];
    if (typeof event !== 'object' || event === null || Array.isArray(event)) continue;
    const copy = { ...(event as Record<string, unknown>) };
    if (copy['type'] === 'user') awaitingText = copy;
    events.push({ at: timeOf(entry['time']), event: copy });
  }
  return { ok: true, value: { model, created, events } };
}

/** The audit decisions in `.tandem/audit.jsonl`, and how many lines were skipped; none when it is absent. */
export function readAuditMarks(root: string): { marks: Mark[]; skipped: number; problem: string | null } {
  const read = readConfinedText(join(root, '.tandem', 'audit.jsonl'), { root, maxBytes: MAX_AUDIT_BYTES, truncate: true, shown: '.tandem/audit.jsonl', refuseLinks: true });
  if (!read.ok) return { marks: [], skipped: 0, problem: read.kind === 'missing' ? null : read.message };
  const marks: Mark[] = [];
  let skipped = 0;
  const lines = read.text.split('\n');
  // A file cut at the cap ends in a partial line: not counted as bad.
  if (read.truncated) lines.pop();
  for (const line of lines) {
    if (line.trim() === '') continue;
    const mark = auditMark(parseObject(line));
    if (mark) marks.push(mark);
    else skipped++;
  }
  return { marks, skipped, problem: null };
}

const DECISIONS: ReadonlySet<string> = new Set(['yes', 'no']);
/** Who decided: `user`, `yes-always`, `remembered`, `policy` today; a short unknown word is shown as it is. */
const MAX_DECIDER = 40;

function auditMark(entry: Record<string, unknown> | null): Mark | null {
  if (!entry) return null;
  const { time, kind, subject, decision, by } = entry;
  const at = timeOf(time);
  if (at === null || typeof kind !== 'string' || typeof subject !== 'string') return null;
  if (typeof decision !== 'string' || !DECISIONS.has(decision) || typeof by !== 'string' || by === '' || by.length > MAX_DECIDER) return null;
  return { at, source: 'audit', text: `${kind} ${subject}`, decision, by };
}

function parseObject(line: string): Record<string, unknown> | null {
  if (line.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : null;
}

/** Puts each audit mark into the request whose time holds it; the rest are returned. */
export function placeMarks(requests: ReadonlyArray<{ start: number; end: number; marks: Mark[] }>, marks: readonly Mark[]): Mark[] {
  const outside: Mark[] = [];
  for (const mark of marks) {
    const request = requests.find((r) => mark.at >= r.start && mark.at <= r.end);
    if (request) request.marks.push(mark);
    else outside.push(mark);
  }
  return outside;
}
