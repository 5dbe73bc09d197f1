// Answers the session's yes/no questions: --yes-always, a person at the terminal, or nobody (headless).
import type { ApprovalKind, Answer, Asker } from '../coders/ports.js';
import { escapeControlChars } from '../platform/control-chars.js';
import type { EmitEvent } from '../session/events.js';

export interface AskerOptions {
  readonly yesAlways: boolean;
  /** Asks a person; null when there is no terminal to ask on (headless, --json). */
  readonly prompt: ((question: string) => Promise<string | null>) | null;
  readonly emit: EmitEvent;
}

/** Kinds that --yes-always never answers: a person must say yes each time. */
const ALWAYS_ASK: ReadonlySet<ApprovalKind> = new Set(['shell-command', 'sensitive-file']);

export function createAsker(options: AskerOptions): Asker {
  return {
    async confirm(raw: string, kind: ApprovalKind): Promise<Answer> {
      // Questions quote a reply's or a repository's text: show control characters, so what is approved is what runs.
      const question = escapeControlChars(raw);
      const answer = await decide(question, kind, options);
      const answeredBy = answer === 'unanswerable' ? 'nobody' : options.yesAlways && !ALWAYS_ASK.has(kind) ? 'yes-always' : 'user';
      options.emit({ type: 'question', text: question, answer: answer === 'yes', answeredBy });
      return answer;
    },
  };
}

async function decide(question: string, kind: ApprovalKind, options: AskerOptions): Promise<Answer> {
  if (options.yesAlways && !ALWAYS_ASK.has(kind)) return 'yes';
  if (!options.prompt) return 'unanswerable';
  const reply = await options.prompt(`${question} (y/n) `);
  if (reply === null) return 'no';
  return /^\s*y(es)?\s*$/i.test(reply) ? 'yes' : 'no';
}
