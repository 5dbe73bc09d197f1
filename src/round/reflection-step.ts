// After a round: whether its failures go back to the model (with the user's say-so for lint and test
// fixes), or the request is done or over its limit. Also the re-ask after the reply's files were added.
import type { PromptSet } from '../coders/prompt-set.js';
import type { Asker } from '../coders/ports.js';
import type { RoundFailures } from './reflection.js';
import { decideReflection, needsFixApproval } from './reflection.js';
import type { RequestOutcome, StepResult } from './outcome.js';
import type { EmitRoundEvent } from './round-events.js';
import { fillPlaceholders } from '../platform/placeholders.js';

/**
 * Re-asks per request after the files a reply needed were added. Each one needs files newly added (a
 * file already in the chat or declined is never offered again), so only a model that keeps naming
 * more files reaches it; its own bound, so finding files never eats the fixes --max-reflections allows.
 */
export const MAX_FILES_ADDED_REASKS = 3;

/**
 * What went back to the model for one request, in two budgets of their own: re-asks after the files
 * a reply needed were added (MAX_FILES_ADDED_REASKS), and fixes of failures (--max-reflections).
 */
export class ReflectionBudget {
  filesAdded = 0;
  fixes = 0;
  /** A suggested command nobody could approve (headless): a request that would complete ends approval_required. */
  commandUnanswered = false;

  constructor(
    readonly maxFixes: number,
    readonly maxFilesAdded: number = MAX_FILES_ADDED_REASKS,
  ) {}
}

export interface ReflectionDeps {
  readonly asker: Asker;
  readonly emit: EmitRoundEvent;
  /** The session's count of messages sent back to the model. */
  readonly totals: { reflections: number };
}

/** The reply needed files the user just added: the same request again, now that the model sees them. */
export function askAgainWithFiles(added: readonly string[], prompts: PromptSet, budget: ReflectionBudget, deps: ReflectionDeps): StepResult {
  if (budget.filesAdded >= budget.maxFilesAdded) {
    const note = `Stopped after asking again ${budget.maxFilesAdded} times with added files; the model still needs more (${added.join(', ')}, now in the chat): send the request again to go on.`;
    deps.emit({ type: 'error', message: note });
    return { end: { status: 'reflection_limit', message: note } };
  }
  deps.totals.reflections++;
  budget.filesAdded++;
  deps.emit({ type: 'reflection', n: budget.filesAdded, reason: 'files added' });
  return { next: fillPlaceholders(prompts.reflection.addedFiles, { files: added.join(', ') }) };
}

/** The next message (the failures for the model to fix), or how the request ends. */
export async function decideNextRound(failures: RoundFailures, budget: ReflectionBudget, deps: ReflectionDeps): Promise<StepResult> {
  const decision = decideReflection(failures, budget.fixes, budget.maxFixes);
  if (decision.action === 'done') return { end: completedUnless(budget) };
  if (decision.action === 'limit') {
    const note = `Stopped after ${budget.maxFixes} reflections; still failing: ${decision.reason}.`;
    deps.emit({ type: 'error', message: note });
    return { end: { status: 'reflection_limit', message: note } };
  }
  if (needsFixApproval(failures.kinds)) {
    const answer = await deps.asker.confirm(`Ask the model to fix the ${decision.reason} failures?`, 'fix-failures');
    if (answer === 'unanswerable') return { end: { status: 'approval_required', message: 'Fixing the failures needed approval.' } };
    if (answer === 'no') return { end: { status: 'completed' } };
  }
  deps.totals.reflections++;
  budget.fixes++;
  deps.emit({ type: 'reflection', n: budget.fixes, reason: decision.reason });
  return { next: decision.message };
}

/** Completed, unless a suggested command went unanswered: then the run must say a person was needed (exit 4). */
export function completedUnless(budget: ReflectionBudget): RequestOutcome {
  if (!budget.commandUnanswered) return { status: 'completed' };
  return { status: 'approval_required', message: 'A suggested shell command needed a person to approve it, and nobody could; it did not run.' };
}
