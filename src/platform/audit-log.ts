// `.tandem/audit.jsonl`: one JSON line for every decision about something that could change or leave the
// machine (a command run, a file written or created, a repository's settings used, a URL fetched), and
// who decided it. The subject is untrusted text (a file name from a reply): it is only ever a JSON string.
import { closeSync, constants, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** What was decided about; the README lists them. */
export type AuditKind =
  /** A shell command: a suggested one, or one refused because the sandbox could not be built. */
  | 'command'
  /** An edit of an existing file that is not in the chat. */
  | 'edit'
  /** A new file. */
  | 'new-file'
  /** An edit only a person may allow (.env, git hooks, ...). */
  | 'person-only'
  /** A file (or a command's output) added to the chat: its text goes to the model's server. */
  | 'add-file'
  /** A command, server or API key named by the repository's own config or .env. */
  | 'repo-settings'
  /** A web page fetched. */
  | 'url-fetch';

/** Who decided: a person, --yes-always, an earlier answer that still holds, or tandem's rules. */
export type AuditBy = 'user' | 'yes-always' | 'remembered' | 'policy';

export interface AuditDecision {
  readonly kind: AuditKind;
  readonly subject: string;
  readonly decision: 'yes' | 'no';
  readonly by: AuditBy;
  readonly reason?: string;
}

/** The audit port: tests pass a list, the CLI the file. Recording never throws. */
export interface AuditLog {
  record(decision: AuditDecision): void;
}

export const noAudit: AuditLog = { record: () => undefined };

/** A subject longer than this is cut (a reply's command may be huge); the line says so. */
const MAX_SUBJECT = 4096;

/**
 * One line of the log. JSON.stringify escapes C0 controls; DEL, C1 controls and the Unicode line
 * separators are escaped too, so `cat audit.jsonl` shows what was decided and drives no terminal.
 */
export function auditLine(decision: AuditDecision, time: Date, session?: string | null): string {
  const subject = decision.subject.length > MAX_SUBJECT ? `${decision.subject.slice(0, MAX_SUBJECT)}[... ${decision.subject.length - MAX_SUBJECT} more characters]` : decision.subject;
  const entry: Record<string, string> = { time: time.toISOString(), kind: decision.kind, subject, decision: decision.decision, by: decision.by };
  if (session) entry['session'] = session;
  if (decision.reason) entry['reason'] = decision.reason;
  return JSON.stringify(entry).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface AuditFileOptions {
  readonly now: () => Date;
  /** The session's id once it has one (its log is created lazily). */
  readonly session?: () => string | null;
  /** Told once when the log cannot be written; the session goes on. */
  readonly onError?: (message: string) => void;
}

/**
 * Appends to `file`, never through a symlink and only to a regular file: a clone's `.tandem/audit.jsonl`
 * pointing at `~/.bashrc` gets nothing. Each line is one write on an O_APPEND descriptor, so two tandems
 * on one repository never interleave inside a line.
 */
export function createAuditFile(file: string, options: AuditFileOptions): AuditLog {
  let broken = false;
  return {
    record(decision) {
      if (broken) return;
      const line = `${auditLine(decision, options.now(), options.session?.())}\n`;
      let fd: number | null = null;
      try {
        mkdirSync(dirname(file), { recursive: true });
        fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
        if (!fstatSync(fd).isFile()) throw new Error('not a regular file');
        writeSync(fd, line);
      } catch (error) {
        broken = true;
        options.onError?.(`Could not write the audit log ${file} (${error instanceof Error ? error.message : String(error)}); decisions are no longer recorded this session.`);
      } finally {
        if (fd !== null) closeSync(fd);
      }
    },
  };
}
