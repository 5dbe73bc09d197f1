// What a repository's own config or .env may use only after the user said yes, once per repository and
// exact text: the commands it names, the server it names, and its API key when the user has none.
import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import type { ApprovalNeeded } from '../config/load.js';
import type { Settings } from '../config/schema.js';
import type { AuditBy, AuditLog } from '../platform/audit-log.js';
import { escapeControlChars } from '../platform/control-chars.js';
import type { EmitEvent } from '../session/events.js';
import type { CliEnvironment } from './cli-environment.js';
import { approvalFile, createApprovalStore } from './command-approvals.js';
import { CliError } from './cli-error.js';
import { EXIT } from '../session/exit-codes.js';
import { askLine, type LineReader } from './line-reader.js';

export interface ApprovalInput {
  readonly settings: Settings;
  readonly approvalsNeeded: readonly ApprovalNeeded[];
  readonly repoRoot: string | null;
  readonly interactive: boolean;
  readonly lines: LineReader;
  readonly emit: EmitEvent;
  /** Each decision (asked, remembered or refused headless) is one line of the audit log. */
  readonly audit?: AuditLog;
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
    const record = (decision: 'yes' | 'no', by: AuditBy, reason?: string): void =>
      input.audit?.record({ kind: 'repo-settings', subject: `${needed.key}: ${text} (${relative(repoRoot, needed.file) || needed.file})`, decision, by, ...(reason ? { reason } : {}) });
    if (await store.isApproved(repoRoot, text)) {
      record('yes', 'remembered', 'approved for this repository before');
      // Shown at every start: the repository, not the user, picked what each request may cost.
      if (needed.cost) emit({ type: 'info', message: `Using the repository's ${needed.key}: ${escapeControlChars(needed.value)} (from ${escapeControlChars(needed.file)}, approved earlier).` });
      continue;
    }
    const question = approvalQuestion(needed, settings);
    if (settings['yes-always'] || !interactive) {
      // --yes-always never answers these: the question says so rather than suggesting it.
      emit({ type: 'question', text: question, answer: false, answeredBy: 'nobody', personOnly: true });
      record('no', 'policy', settings['yes-always'] ? '--yes-always does not approve a repository\'s settings' : 'nobody to ask: no terminal (headless or --json)');
      throw new CliError(unapprovedLine(needed), EXIT.approvalRequired);
    }
    const answer = await askLine(lines, question);
    emit({ type: 'question', text: question, answer: answer === 'yes', answeredBy: 'user' });
    record(answer === 'yes' ? 'yes' : 'no', 'user');
    if (answer !== 'yes') throw new CliError(`not using the repository's ${needed.key}; remove it from ${escapeControlChars(needed.file)} or approve it`, EXIT.approvalRequired);
    await store.approve(repoRoot, text);
  }
}

/**
 * `--trust-repo-settings`: the user's own yes, given on the command line, for every setting that would
 * ask. Each is shown exactly as the question would show it and stored as an interactive yes is.
 */
export async function trustRepoSettings(environment: CliEnvironment, input: Omit<ApprovalInput, 'interactive' | 'lines' | 'emit'>): Promise<void> {
  const { settings, repoRoot } = input;
  const write = (text: string): void => void environment.stderr.write(`${text}\n`);
  if (repoRoot === null) throw new CliError('--trust-repo-settings: not in a git repository', EXIT.usage);
  const store = createApprovalStore(approvalFile(environment.homeDir));
  let approved = 0;
  for (const needed of input.approvalsNeeded) {
    const text = approvalText(needed);
    if (await store.isApproved(repoRoot, text)) continue;
    const question = approvalQuestion(needed, settings);
    write(`Approved: ${question}`);
    await store.approve(repoRoot, text);
    input.audit?.record({ kind: 'repo-settings', subject: `${needed.key}: ${text} (${relative(repoRoot, needed.file) || needed.file})`, decision: 'yes', by: 'user', reason: '--trust-repo-settings' });
    approved += 1;
  }
  write(approved === 0 ? `Nothing to approve: ${escapeControlChars(repoRoot)} has no settings waiting for your yes.` : `Approved ${approved} setting(s) for ${escapeControlChars(repoRoot)}.`);
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
  if (!needed.cost) return `${unapproved(needed)}, which you have not approved; run tandem interactively once, or tandem --trust-repo-settings, to approve it`;
  const value = escapeControlChars(needed.value);
  return `not applied: the repository's ${escapeControlChars(needed.file)} sets ${needed.key} to ${value}, which may raise what each request costs; run tandem interactively once (or tandem --trust-repo-settings) to approve it, or give your own --${needed.key}`;
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
