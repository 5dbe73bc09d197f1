// Answers the session's yes/no questions: --yes-always, a person at the terminal, or nobody (headless).
// A person answers with one key: y, n, a (yes to the rest of this kind until the next prompt), d (no,
// and the same question is answered no for the rest of the session without asking).
import type { ApprovalKind, Answer, Asker } from '../coders/ports.js';
import type { AuditBy, AuditKind, AuditLog } from '../platform/audit-log.js';
import { escapeControlChars } from '../platform/control-chars.js';
import type { EmitEvent } from '../session/events.js';
import type { Choice } from './keys.js';

export type AskPerson = (question: string, choices: readonly Choice[], fallback: Choice) => Promise<Choice>;

export interface AskerOptions {
  readonly yesAlways: boolean;
  /** Asks a person; null when there is no terminal to ask on (headless, --json). */
  readonly prompt: AskPerson | null;
  readonly emit: EmitEvent;
  /** Counts the prompts shown so far: an "all" answer lasts until the user's next input. */
  readonly promptCount?: () => number;
  /** Where each decision about something that changes or leaves the machine is recorded. */
  readonly audit?: AuditLog;
}

/** The audit log's kind for a question; absent: not recorded (it only retries or spends tokens). */
const AUDIT_KINDS: Partial<Record<ApprovalKind, AuditKind>> = {
  'shell-command': 'command',
  'edit-outside-chat': 'edit',
  'create-file': 'new-file',
  'sensitive-file': 'person-only',
  'large-reply': 'person-only',
  'fetch-url': 'url-fetch',
  'add-file': 'add-file',
};

const NOBODY_REASON = 'nobody to ask: no terminal (headless or --json)';

/** Kinds that --yes-always (and "all") never answers: a person must say yes each time. */
const ALWAYS_ASK: ReadonlySet<ApprovalKind> = new Set(['shell-command', 'sensitive-file', 'large-reply']);

/** Kinds where Enter means yes: they only add context or retry; the others write, run or spend. */
const DEFAULT_YES: ReadonlySet<ApprovalKind> = new Set(['add-file', 'fix-failures']);

export function createAsker(options: AskerOptions): Asker {
  const allFor = new Map<ApprovalKind, number>();
  const never = new Set<string>();
  const epoch = (): number => options.promptCount?.() ?? 0;
  return {
    async confirm(raw: string, kind: ApprovalKind, subject?: string): Promise<Answer> {
      // Questions quote a reply's or a repository's text: show control characters, so what is approved is what runs.
      const question = escapeControlChars(raw);
      const { answer, by } = await decide(question, kind);
      if (options.audit) recordDecision(options.audit, kind, subject ?? raw, answer, by);
      const answeredBy = answer === 'unanswerable' ? 'nobody' : options.yesAlways && !ALWAYS_ASK.has(kind) ? 'yes-always' : 'user';
      options.emit({ type: 'question', text: question, answer: answer === 'yes', answeredBy, ...(ALWAYS_ASK.has(kind) ? { personOnly: true } : {}) });
      return answer;
    },
  };

  async function decide(question: string, kind: ApprovalKind): Promise<{ answer: Answer; by: AuditBy }> {
    if (options.yesAlways && !ALWAYS_ASK.has(kind)) return { answer: 'yes', by: 'yes-always' };
    if (!options.prompt) return { answer: 'unanswerable', by: 'policy' };
    if (never.has(question)) return { answer: 'no', by: 'remembered' };
    if (allFor.get(kind) === epoch()) return { answer: 'yes', by: 'remembered' };
    const choices: Choice[] = ALWAYS_ASK.has(kind) ? ['yes', 'no', 'never'] : ['yes', 'no', 'all', 'never'];
    const choice = await options.prompt(question, choices, DEFAULT_YES.has(kind) ? 'yes' : 'no');
    if (choice === 'all') allFor.set(kind, epoch());
    if (choice === 'never') never.add(question);
    return { answer: choice === 'yes' || choice === 'all' ? 'yes' : 'no', by: 'user' };
  }
}

function recordDecision(audit: AuditLog, kind: ApprovalKind, subject: string, answer: Answer, by: AuditBy): void {
  const auditKind = AUDIT_KINDS[kind];
  if (!auditKind) return;
  const reason = answer === 'unanswerable' ? NOBODY_REASON : by === 'remembered' ? (answer === 'yes' ? "'all' earlier" : "'never' earlier") : undefined;
  audit.record({ kind: auditKind, subject, decision: answer === 'yes' ? 'yes' : 'no', by, ...(reason ? { reason } : {}) });
}
