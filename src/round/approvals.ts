// Who allows each file of a change set: the edit policy without a question, the user with one, or a
// file declined earlier in this chat. What is refused or declined leaves the set with its reason.
import type { FileSystem } from '../platform/file-system.js';
import { decideEdit, type EditPolicyDecision } from '../edits/edit-policy.js';
import { realRepoPath } from './real-repo-path.js';
import { replyLimitReason } from '../edits/reply-limits.js';
import type { PlannedFile } from '../edits/types.js';
import type { AuditKind, AuditLog } from '../platform/audit-log.js';
import type { Asker } from '../coders/ports.js';
import type { ChangeSet, FileRefusal } from './change-set.js';

export interface ApprovalOptions {
  readonly root: string;
  readonly chatFiles: readonly string[];
  /** Read-only files (--read, AGENTS.md), repository-relative: never edited. */
  readonly readOnly?: readonly string[];
  /** git's hooks folder (core.hooksPath) relative to the root, when it is inside the repository. */
  readonly hooksDir?: string | null;
  /** Files the repository's git config includes, repository-relative: only a person may edit them. */
  readonly gitIncludes?: readonly string[];
  /** The lint and test commands: new files that change what they load need a person. */
  readonly commands?: readonly string[];
  /** Files the user declined in this chat: never asked about again, and a "no" here joins them. */
  readonly declined?: Set<string>;
}

export interface ApprovalDeps {
  readonly asker: Asker;
  /** Records the decisions made without a question: a path refused by policy, a file declined earlier. */
  readonly audit?: AuditLog;
  /** Where symlinks are resolved (the real file system by default). */
  readonly fs?: FileSystem;
}

/** The change set with only the files allowed; the others refused, and the files allowed by a "yes" noted. */
export async function approveChangeSet(set: ChangeSet, options: ApprovalOptions, deps: ApprovalDeps): Promise<ChangeSet> {
  const tooMuch = replyLimitReason([...set.files]);
  if (tooMuch !== null) {
    // One question for the whole reply, before any per-file one: a person looks at it, or nothing is written.
    const answer = await deps.asker.confirm(`Write this reply? Careful: ${tooMuch}.`, 'large-reply');
    if (answer !== 'yes') {
      const message = `The user did not allow this reply's changes: ${tooMuch}. Nothing was written.`;
      const refused = set.files.map((file) => refusal(file, 'denied', message));
      return { ...set, files: [], refused: [...set.refused, ...refused], approvalRequired: answer === 'unanswerable' };
    }
  }
  const files: PlannedFile[] = [];
  const refused: FileRefusal[] = [];
  const addedToChat: string[] = [];
  let unanswerable = false;
  for (const file of set.files) {
    const question = approvalQuestion(file, options, await realRepoPath(options.root, file.path, deps.fs));
    if (question?.kind === 'refused') {
      deps.audit?.record({ kind: file.created ? 'new-file' : 'edit', subject: file.path, decision: 'no', by: 'policy', reason: question.text });
      refused.push(refusal(file, 'outside_repo', `Refused edit of ${file.path}: ${question.text}. Do not send edits to this file again.`));
      continue;
    }
    if (!question) {
      files.push(file);
      continue;
    }
    // No means no: a file declined earlier in this chat is not asked about again.
    const declinedBefore = options.declined?.has(file.path) === true;
    if (declinedBefore) deps.audit?.record({ kind: auditKindOf(question.kind), subject: file.path, decision: 'no', by: 'remembered', reason: 'declined earlier in this chat' });
    const answer = declinedBefore ? 'no' : await deps.asker.confirm(question.text, question.kind, file.path);
    if (answer === 'no') options.declined?.add(file.path);
    if (answer === 'yes') {
      files.push(file);
      addedToChat.push(file.path);
      continue;
    }
    unanswerable ||= answer === 'unanswerable';
    refused.push(refusal(file, 'denied', `The user did not allow changes to ${file.path}.`));
  }
  return { ...set, files, refused: [...set.refused, ...refused], addedToChat: [...set.addedToChat, ...addedToChat], approvalRequired: set.approvalRequired || unanswerable };
}

function refusal(file: PlannedFile, reason: FileRefusal['reason'], message: string): FileRefusal {
  return { path: file.path, editIndexes: file.editIndexes, reason, message };
}

function approvalQuestion(file: PlannedFile, options: ApprovalOptions, realPath: string | null) {
  const context = { chatFiles: options.chatFiles, readOnly: options.readOnly, hooksDir: options.hooksDir, gitIncludes: options.gitIncludes, commands: options.commands };
  const content = { before: file.before.text, after: file.after };
  const decision = stricter(decideEdit(file.path, file.created, context, content), realPath === null ? null : decideEdit(realPath, file.created, context, content));
  if (decision.answer === 'no-question') return null;
  if (decision.answer === 'refused') return { text: decision.reason, kind: 'refused' as const };
  const action = file.created ? `Create new file ${file.path}` : `Allow edits to ${file.path}`;
  if (decision.answer === 'person-only') return { text: `${action}? Careful: ${decision.reason}.`, kind: 'sensitive-file' as const };
  if (!file.created) return { text: `Allow edits to ${file.path}, which is not in the chat?`, kind: 'edit-outside-chat' as const };
  return { text: `Create new file ${file.path}?`, kind: 'create-file' as const };
}

/** A path that leads out of the repository is refused before any question: one audit line per path. */
export function auditOutsidePaths(set: ChangeSet, audit: AuditLog | undefined): void {
  const seen = new Set<string>();
  for (const failure of set.failures) {
    if (failure.reason !== 'outside_repo' || seen.has(failure.edit.path)) continue;
    seen.add(failure.edit.path);
    audit?.record({ kind: 'edit', subject: failure.edit.path, decision: 'no', by: 'policy', reason: 'the path leads outside the repository' });
  }
}

function auditKindOf(kind: 'sensitive-file' | 'edit-outside-chat' | 'create-file'): AuditKind {
  return kind === 'sensitive-file' ? 'person-only' : kind === 'create-file' ? 'new-file' : 'edit';
}

/** The lexical path's answer, unless the path's real target (through symlinks) is refused or needs a person. */
function stricter(lexical: EditPolicyDecision, real: EditPolicyDecision | null): EditPolicyDecision {
  if (real === null || lexical.answer === 'refused') return lexical;
  if (real.answer === 'refused' || (real.answer === 'person-only' && lexical.answer !== 'person-only')) return real;
  return lexical;
}
