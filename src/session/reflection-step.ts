// After a round: whether its failures go back to the model (with the user's say-so for lint and test
// fixes), or the request is done or over its limit. Also the re-ask after the reply's files were added.
import type { PromptSet } from '../coders/prompt-set.js';
import type { Asker } from '../coders/ports.js';
import type { RoundFailures } from '../coders/reflection.js';
import { decideReflection, needsFixApproval } from '../coders/reflection.js';
import type { EmitEvent } from './events.js';
import type { StepResult } from './session-types.js';
import type { SessionTotals } from './totals.js';

/**
 * What went back to the model for one request, counted apart: re-asks after the files a reply needed
 * were added, and fixes of failures. Both spend the one budget of --max-reflections.
 */
export class ReflectionBudget {
  filesAdded = 0;
  fixes = 0;

  constructor(readonly max: number) {}

  get used(): number {
    return this.filesAdded + this.fixes;
  }

  get left(): boolean {
    return this.used < this.max;
  }
}

export interface ReflectionDeps {
  readonly asker: Asker;
  readonly emit: EmitEvent;
  readonly totals: SessionTotals;
}

/** The reply needed files the user just added: the same request again, now that the model sees them. */
export function askAgainWithFiles(added: readonly string[], prompts: PromptSet, budget: ReflectionBudget, deps: ReflectionDeps): string {
  deps.totals.reflections++;
  deps.emit({ type: 'reflection', n: budget.used + 1, reason: 'files added' });
  budget.filesAdded++;
  return prompts.reflection.addedFiles.replace('{files}', () => added.join(', '));
}

/** The next message (the failures for the model to fix), or how the request ends. */
export async function decideNextRound(failures: RoundFailures, budget: ReflectionBudget, deps: ReflectionDeps): Promise<StepResult> {
  const decision = decideReflection(failures, budget.used, budget.max);
  if (decision.action === 'done') return { end: { status: 'completed' } };
  if (decision.action === 'limit') {
    const note = `Stopped after ${budget.max} reflections; still failing: ${decision.reason}.`;
    deps.emit({ type: 'error', message: note });
    return { end: { status: 'reflection_limit', message: note } };
  }
  if (needsFixApproval(failures.kinds)) {
    const answer = await deps.asker.confirm(`Ask the model to fix the ${decision.reason} failures?`, 'fix-failures');
    if (answer === 'unanswerable') return { end: { status: 'approval_required', message: 'Fixing the failures needed approval.' } };
    if (answer === 'no') return { end: { status: 'completed' } };
  }
  deps.totals.reflections++;
  deps.emit({ type: 'reflection', n: budget.used + 1, reason: decision.reason });
  budget.fixes++;
  return { next: decision.message };
}
