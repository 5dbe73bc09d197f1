// What a repository's own config or .env may use only after the user said yes, once per repository and
// exact text: the commands it names, the server it names, and its API key when the user has none.
import { createHash } from 'node:crypto';
import type { ApprovalNeeded } from '../config/load.js';
import type { Settings } from '../config/schema.js';
import { escapeControlChars } from '../platform/control-chars.js';
import type { EmitEvent } from '../session/events.js';
import type { CliEnvironment } from './cli-environment.js';
import { approvalFile, createApprovalStore } from './command-approvals.js';
import { CliError } from './exit-codes.js';
import { EXIT } from '../session/exit-codes.js';
import { askLine, type LineReader } from './line-reader.js';

export interface ApprovalInput {
  readonly settings: Settings;
  readonly approvalsNeeded: readonly ApprovalNeeded[];
  readonly repoRoot: string | null;
  readonly interactive: boolean;
  readonly lines: LineReader;
  readonly emit: EmitEvent;
}

/**
 * loadConfig lists only values still in effect, so anything the user overrode is absent. The approval
 * is stored for exactly the text the question showed (escaped for display, stored as it is).
 */
export async function approveRepoCommands(environment: CliEnvironment, input: ApprovalInput): Promise<void> {
  const { settings, interactive, lines, emit, repoRoot } = input;
  if (input.approvalsNeeded.length === 0 || repoRoot === null) return;
  const store = createApprovalStore(approvalFile(environment.homeDir));
  for (const needed of input.approvalsNeeded) {
    const text = approvalText(needed);
    if (await store.isApproved(repoRoot, text)) {
      // Shown at every start: the repository, not the user, picked what each request may cost.
      if (needed.cost) emit({ type: 'info', message: `Using the repository's ${needed.key}: ${escapeControlChars(needed.value)} (from ${escapeControlChars(needed.file)}, approved earlier).` });
      continue;
    }
    const question = approvalQuestion(needed, settings);
    if (settings['yes-always'] || !interactive) {
      // --yes-always never answers these: the question says so rather than suggesting it.
      emit({ type: 'question', text: question, answer: false, answeredBy: 'nobody', personOnly: true });
      throw new CliError(unapprovedLine(needed), EXIT.approvalRequired);
    }
    const answer = await askLine(lines, `${question} (y/n) `);
    emit({ type: 'question', text: question, answer: answer === 'yes', answeredBy: 'user' });
    if (answer !== 'yes') throw new CliError(`not using the repository's ${needed.key}; remove it from ${escapeControlChars(needed.file)} or approve it`, EXIT.approvalRequired);
    await store.approve(repoRoot, text);
  }
}

/** What the approval is stored as: the exact value, or for a secret its file and a digest (never the key itself). */
function approvalText(needed: ApprovalNeeded): string {
  // A setting's approval is for that key and value, never mistaken for a command's text.
  if (needed.cost) return `setting ${needed.key}=${needed.value}`;
  if (!needed.secret) return needed.value;
  const digest = createHash('sha256').update(needed.value).digest('hex').slice(0, 16);
  return `${needed.key} from ${needed.file} sha256:${digest}`;
}

function unapprovedLine(needed: ApprovalNeeded): string {
  if (!needed.cost) return `${unapproved(needed)}, which you have not approved; run tandem interactively once to approve it`;
  const value = escapeControlChars(needed.value);
  return `not applied: the repository's ${escapeControlChars(needed.file)} sets ${needed.key} to ${value}, which may raise what each request costs; run tandem interactively once to approve it, or give your own --${needed.key}`;
}

function unapproved(needed: ApprovalNeeded): string {
  const file = escapeControlChars(needed.file);
  if (needed.secret) return `${file} sets an API key for you`;
  return `the repository's configuration (${file}) sets ${needed.key} to ${escapeControlChars(needed.value)}`;
}

export function approvalQuestion(needed: ApprovalNeeded, settings: Settings): string {
  const file = escapeControlChars(needed.file);
  if (needed.secret) {
    const server = escapeControlChars(settings['base-url'] ?? 'the default OpenAI server');
    return `You have no API key of your own; the repository's ${file} sets one. Send it to ${server} with your requests?`;
  }
  if (needed.cost) {
    return `The repository's ${file} sets ${needed.key} to \`${escapeControlChars(needed.value)}\`, which may raise what each request costs. Use it?`;
  }
  const action = needed.key === 'base-url' ? 'send your requests (and API key) there' : 'run it';
  return `The repository's ${file} sets ${needed.key} to \`${escapeControlChars(needed.value)}\`. Allow tandem to ${action}?`;
}
