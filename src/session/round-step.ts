// One round of a reply that makes edits: apply them (and commit), offer what they need, run the checks,
// and gather what failed for the model. The round either ends the request or hands back its failures.
import type { CheckRoundResult } from '../coders/check-round.js';
import { runCheckRound } from '../coders/check-round.js';
import type { CommitWritten, EditRoundResult } from '../coders/edit-round.js';
import { describeEditProblems, runEditRound } from '../coders/edit-round.js';
import type { RequestPorts } from '../coders/ports.js';
import type { FailureKind, RoundFailures } from '../coders/reflection.js';
import { offerShellCommands } from '../coders/shell-offer.js';
import type { EmitEvent } from './events.js';
import { offerUnseenFiles, type FileOfferDeps } from './file-offers.js';
import type { LoadedCoder, RequestOutcome, SessionOptions } from './session-types.js';
import type { SessionTotals } from './totals.js';
import { ApplyError } from '../edits/apply.js';
import { fillPlaceholders } from '../platform/placeholders.js';

export interface RoundDeps {
  readonly options: SessionOptions;
  readonly ports: RequestPorts;
  readonly emit: EmitEvent;
  readonly totals: SessionTotals;
  /** Text tandem wrote but could not commit, by path. */
  readonly uncommittedByTandem: Map<string, string>;
  /** The chat's files, read-only files and declined files; files the round adds join the chat through it. */
  readonly offers: FileOfferDeps;
  readonly commit: CommitWritten | null;
  /** A suggested shell command nobody could approve (headless). */
  readonly onUnansweredCommand?: () => void;
  /** A typed failure while applying: ends the request (see error-ending.ts). */
  readonly endWithError: (error: unknown, modelNote: string) => RequestOutcome;
}

/** The request is over (approval needed, interrupted, declined, an error), or these failures go back. */
export type RoundResult = { readonly end: RequestOutcome } | { readonly failures: RoundFailures };

export async function runRound(reply: string, loaded: LoadedCoder, deps: RoundDeps, signal?: AbortSignal): Promise<RoundResult> {
  const applied = await applyEdits(reply, loaded, deps, signal);
  if ('end' in applied) return applied;
  const { edits, added, declined } = applied;
  const editFailures = describeEditFailures(edits, added, loaded);
  if (edits.approvalRequired) return { end: { status: 'approval_required', message: 'An edit needed approval that nobody could give.' } };
  // Checks and fixes go on; the request then ends approval_required rather than completed (exit 4).
  if (applied.shellUnanswerable) deps.onUnansweredCommand?.();
  const checks = await runChecks(edits, loaded, deps, signal);
  if (signal?.aborted) return { end: { status: 'interrupted', message: 'Interrupted while checking the change.' } };
  // No means no: a declined edit or file is not a failure to retry; the request ends here.
  if (declined) return { end: { status: 'completed' } };
  return { failures: { sections: [...editFailures.sections, ...checks.failures], kinds: [...editFailures.kinds, ...checks.kinds] } };
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

async function applyEdits(reply: string, loaded: LoadedCoder, deps: RoundDeps, signal?: AbortSignal): Promise<AppliedEdits | { end: RequestOutcome }> {
  const { options, ports, offers } = deps;
  const declinedBefore = offers.declined.size;
  const seen = [...offers.chatFiles];
  let edits: EditRoundResult;
  try {
    edits = await runEditRound(
      reply,
      {
        root: options.root,
        chatFiles: offers.chatFiles,
        dryRun: options.dryRun,
        dirtyCommits: options.dirtyCommits,
        readOnly: offers.readOnly,
        hooksDir: options.hooksDir,
        gitIncludes: options.gitIncludes,
        commands: options.commandsRun,
        uncommittedByTandem: deps.uncommittedByTandem,
        declined: offers.declined,
        signal,
      },
      { coder: loaded.coder, asker: ports.asker, git: ports.git, emit: deps.emit, lock: ports.lock ?? null, commit: deps.commit, journal: ports.applyJournal ?? null, audit: ports.audit },
    );
  } catch (error) {
    if (signal?.aborted && error instanceof ApplyError && error.kind === 'interrupted') {
      const message = error.message;
      deps.emit({ type: 'info', message });
      return { end: { status: 'interrupted', message } };
    }
    return { end: deps.endWithError(error, 'None of the edits in your last reply were applied') };
  }
  trackUncommitted(edits.written, edits.uncommitted, deps);
  for (const path of edits.addedToChat) offers.add(path);
  // Edits that did not apply to a file the model has not seen: offer it, and ask for those edits again.
  const unseen = edits.failures.filter((f) => f.reason !== 'denied' && !seen.includes(f.edit.path)).map((f) => f.edit.path);
  const added = await offerUnseenFiles(unseen, offers);
  const declined = offers.declined.size > declinedBefore || edits.failures.some((f) => f.reason === 'denied');
  deps.totals.editsApplied += edits.appliedCount;
  deps.totals.editsFailed += edits.failures.length;
  const shell = await offerShellCommands(edits.shellCommands, { shell: ports.shell, asker: ports.asker, emit: deps.emit });
  return { edits, added, declined, shellUnanswerable: shell.unanswerable };
}

function describeEditFailures(edits: EditRoundResult, added: readonly string[], loaded: LoadedCoder): RoundFailures {
  const sections: string[] = [];
  const kinds: FailureKind[] = [];
  if (added.length > 0) sections.push(fillPlaceholders(loaded.prompts.reflection.addedFilesRedo, { files: added.join(', ') }));
  const editText = describeEditProblems(edits, loaded.prompts.reflection, new Set(added));
  if (editText) sections.push(editText);
  if (added.length > 0 || editText) kinds.push('edit');
  return { sections, kinds };
}

function runChecks(edits: EditRoundResult, loaded: LoadedCoder, deps: RoundDeps, signal?: AbortSignal): Promise<CheckRoundResult> {
  const { options } = deps;
  return runCheckRound(
    edits.written,
    { lint: options.autoLint, test: options.autoTest && edits.written.length > 0 },
    { checks: deps.ports.checks, emit: deps.emit, prompts: loaded.prompts.reflection, testCommand: options.testCommand, signal, clock: deps.ports.clock },
  );
}

/** Remembers what tandem wrote but could not commit, so it is never committed later as the user's work. */
function trackUncommitted(written: ReadonlyArray<{ path: string; after: string }>, reason: string | undefined, deps: RoundDeps): void {
  for (const file of written) {
    if (reason) deps.uncommittedByTandem.set(file.path, file.after);
    else deps.uncommittedByTandem.delete(file.path);
  }
  if (reason && written.length > 0) {
    deps.emit({ type: 'warning', message: `Left the edits to ${written.map((f) => f.path).join(', ')} uncommitted: ${reason}.` });
  }
}
