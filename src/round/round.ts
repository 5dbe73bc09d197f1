// One round of a reply, in one place: the coder parses it once; a reply without edits that names files it
// needs gets them offered; otherwise its edits are planned, approved, written and committed, the files
// they failed on and the commands it suggests are offered, the checks run, and what failed becomes the
// next message for the model. The session calls the round and gets back how the step ends.
import { ApplyError } from './apply.js';
import { fillPlaceholders } from '../platform/placeholders.js';
import type { Coder } from '../coders/coder.js';
import type { RequestPorts } from '../coders/ports.js';
import type { PromptSet } from '../coders/prompt-set.js';
import type { ParseResult } from '../edits/types.js';
import { runCheckRound, type CheckRoundResult } from './check-round.js';
import { commitChange } from './commit-change.js';
import { describeEditProblems, runEditRound, type EditRoundResult } from './edit-round.js';
import { offerFilesTheReplyNeeds, offerUnseenFiles, type FileOfferDeps } from './file-offers.js';
import type { UncommittedLedger } from './ledger.js';
import type { RequestOutcome, StepResult } from './outcome.js';
import { decideReflection, type FailureKind, type RoundFailures } from './reflection.js';
import { askAgainWithFiles, decideNextRound, type ReflectionBudget, type ReflectionDeps } from './reflection-step.js';
import type { EmitRoundEvent } from './round-events.js';
import { offerShellCommands } from './shell-offer.js';
import type { CommitWritten } from './write-change.js';

/** A coder with its prompts, as the session loaded it. */
export interface RoundCoder {
  readonly coder: Coder;
  readonly prompts: PromptSet;
}

/** The settings a round reads (the session's options hold them). */
export interface RoundOptions {
  readonly root: string;
  readonly dryRun: boolean;
  readonly autoCommits: boolean;
  readonly dirtyCommits: boolean;
  readonly autoLint: boolean;
  readonly autoTest: boolean;
  readonly testCommand: string;
  /** git's hooks folder relative to the root (core.hooksPath), whose files only a person may edit. */
  readonly hooksDir?: string | null;
  /** Files the repository's git config includes (repository-relative), whose edits need a person. */
  readonly gitIncludes?: readonly string[];
  /** The lint and test commands as configured: new files that change what they load need a person. */
  readonly commandsRun?: readonly string[];
}

/** The ports a round uses (the session's request ports hold them). */
export type RoundPorts = Pick<RequestPorts, 'weakModel' | 'git' | 'checks' | 'asker' | 'shell' | 'lock' | 'applyJournal' | 'audit' | 'clock'>;

/** The session's running counts a round adds to. */
export interface RoundTally {
  editsApplied: number;
  editsFailed: number;
  commits: number;
  reflections: number;
}

export interface RoundDeps {
  readonly options: RoundOptions;
  readonly ports: RoundPorts;
  readonly emit: EmitRoundEvent;
  readonly totals: RoundTally;
  /** What tandem wrote and has not committed in this chat. */
  readonly ledger: UncommittedLedger;
  /** The chat's files, read-only files and declined files; files the round adds join the chat through it. */
  readonly chat: FileOfferDeps;
  /** The models that write the commit message, and the user's request it sums up. */
  readonly commitMessage: { readonly models: { readonly weak: string; readonly main: string }; readonly request: string | undefined };
}

/** A failure while applying (git, disk, lock): the session ends the request with it, noting `modelNote` on the last reply. */
export interface RoundError {
  readonly error: unknown;
  readonly modelNote: string;
}

/** The model's reply to a request: its round, then the next message for the model or the end of the request. */
export async function runReplyRound(reply: string, loaded: RoundCoder, budget: ReflectionBudget, deps: RoundDeps, signal?: AbortSignal): Promise<StepResult | RoundError> {
  const parsed = loaded.coder.parse(reply, { chatFiles: deps.chat.chatFiles });
  const added = await offerFilesTheReplyNeeds(reply, parsed, deps.chat);
  if (added.length > 0) return askAgainWithFiles(added, loaded.prompts, budget, reflectionDeps(deps));
  const round = await runRound(parsed, loaded, deps, signal);
  if ('end' in round || 'error' in round) return round;
  // Checks and fixes went on; the request then ends approval_required rather than completed (exit 4).
  if (round.commandUnanswered) budget.commandUnanswered = true;
  return decideNextRound(round.failures, budget, reflectionDeps(deps));
}

/**
 * A reply written elsewhere (`--apply FILE`, the clipboard): one round, exactly like a model's reply's.
 * Nobody can be asked to fix what fails, so failures end the request with status reflection_limit.
 */
export async function applyReplyOnce(reply: string, loaded: RoundCoder, deps: RoundDeps, signal?: AbortSignal): Promise<RequestOutcome | RoundError> {
  const round = await runRound(loaded.coder.parse(reply, { chatFiles: deps.chat.chatFiles }), loaded, deps, signal);
  if ('error' in round) return round;
  if ('end' in round) return round.end;
  const decision = decideReflection(round.failures, 0, 0);
  if (decision.action !== 'limit') return { status: 'completed' };
  const note = `The reply's edits did not all land (${decision.reason}); nothing was sent to a model:\n${round.failures.sections.join('\n\n')}`;
  deps.emit({ type: 'error', message: note });
  return { status: 'reflection_limit', message: note };
}

/** The request is over (approval needed, interrupted, declined), a failure ends it, or these failures go back. */
type RoundResult = { readonly end: RequestOutcome } | RoundError | { readonly failures: RoundFailures; readonly commandUnanswered: boolean };

async function runRound(parsed: ParseResult, loaded: RoundCoder, deps: RoundDeps, signal?: AbortSignal): Promise<RoundResult> {
  const applied = await applyEdits(parsed, loaded, deps, signal);
  if ('end' in applied || 'error' in applied) return applied;
  const { edits, added, declined } = applied;
  const editFailures = describeEditFailures(edits, added, loaded);
  if (edits.approvalRequired) return { end: { status: 'approval_required', message: 'An edit needed approval that nobody could give.' } };
  const checks = await runChecks(edits, loaded, deps, signal);
  if (signal?.aborted) return { end: { status: 'interrupted', message: 'Interrupted while checking the change.' } };
  // No means no: a declined edit or file is not a failure to retry; the request ends here.
  if (declined) return { end: { status: 'completed' } };
  const failures = { sections: [...editFailures.sections, ...checks.failures], kinds: [...editFailures.kinds, ...checks.kinds] };
  return { failures, commandUnanswered: applied.shellUnanswerable };
}

interface AppliedEdits {
  readonly edits: EditRoundResult;
  /** Files offered (and added) because edits to them failed unseen: those edits are asked for again. */
  readonly added: string[];
  /** The user said no to an edit or a file in this round. */
  readonly declined: boolean;
  /** A suggested shell command needed a person and nobody could answer (headless). */
  readonly shellUnanswerable: boolean;
}

async function applyEdits(parsed: ParseResult, loaded: RoundCoder, deps: RoundDeps, signal?: AbortSignal): Promise<AppliedEdits | { end: RequestOutcome } | RoundError> {
  const { options, ports, chat } = deps;
  const declinedBefore = chat.declined.size;
  const seen = [...chat.chatFiles];
  // The syntax check's grammars load while the edits are planned, written and committed (waits on git and the weak model).
  if (!options.dryRun) ports.checks.prepare?.(parsed.edits.map((edit) => edit.path));
  let edits: EditRoundResult;
  try {
    edits = await runEditRound(
      parsed,
      {
        root: options.root,
        chatFiles: chat.chatFiles,
        dryRun: options.dryRun,
        dirtyCommits: options.dirtyCommits,
        readOnly: chat.readOnly,
        hooksDir: options.hooksDir,
        gitIncludes: options.gitIncludes,
        commands: options.commandsRun,
        declined: chat.declined,
        signal,
      },
      { asker: ports.asker, git: ports.git, emit: deps.emit, lock: ports.lock ?? null, commit: commitOf(loaded, deps), journal: ports.applyJournal ?? null, audit: ports.audit, ledger: deps.ledger },
    );
  } catch (error) {
    if (signal?.aborted && error instanceof ApplyError && error.kind === 'interrupted') {
      const message = error.message;
      deps.emit({ type: 'info', message });
      return { end: { status: 'interrupted', message } };
    }
    return { error, modelNote: 'None of the edits in your last reply were applied' };
  }
  for (const path of edits.addedToChat) chat.add(path);
  // Edits that did not apply to a file the model has not seen: offer it, and ask for those edits again.
  const unseen = edits.failures.filter((f) => f.reason !== 'denied' && !seen.includes(f.edit.path)).map((f) => f.edit.path);
  const added = await offerUnseenFiles(unseen, chat);
  const declined = chat.declined.size > declinedBefore || edits.failures.some((f) => f.reason === 'denied');
  deps.totals.editsApplied += edits.appliedCount;
  deps.totals.editsFailed += edits.failures.length;
  const shell = await offerShellCommands(edits.shellCommands, { shell: ports.shell, asker: ports.asker, emit: deps.emit });
  return { edits, added, declined, shellUnanswerable: shell.unanswerable };
}

/** tandem's commit of the round's writes, or null when nothing is committed (no git, --no-auto-commits). */
function commitOf(loaded: RoundCoder, deps: RoundDeps): CommitWritten | null {
  const git = deps.ports.git;
  if (!git || !deps.options.autoCommits) return null;
  const { models, request } = deps.commitMessage;
  return commitChange({ git, client: deps.ports.weakModel, models, systemPrompt: loaded.prompts.commitMessage, request, emit: deps.emit, totals: deps.totals, clock: deps.ports.clock });
}

function describeEditFailures(edits: EditRoundResult, added: readonly string[], loaded: RoundCoder): RoundFailures {
  const sections: string[] = [];
  const kinds: FailureKind[] = [];
  if (added.length > 0) sections.push(fillPlaceholders(loaded.prompts.reflection.addedFilesRedo, { files: added.join(', ') }));
  const editText = describeEditProblems(edits, loaded.prompts.reflection, new Set(added));
  if (editText) sections.push(editText);
  if (added.length > 0 || editText) kinds.push('edit');
  return { sections, kinds };
}

function runChecks(edits: EditRoundResult, loaded: RoundCoder, deps: RoundDeps, signal?: AbortSignal): Promise<CheckRoundResult> {
  const { options } = deps;
  return runCheckRound(
    edits.written,
    { lint: options.autoLint, test: options.autoTest && edits.written.length > 0 },
    { checks: deps.ports.checks, emit: deps.emit, prompts: loaded.prompts.reflection, testCommand: options.testCommand, signal, clock: deps.ports.clock },
  );
}

function reflectionDeps(deps: RoundDeps): ReflectionDeps {
  return { asker: deps.ports.asker, emit: deps.emit, totals: deps.totals };
}
