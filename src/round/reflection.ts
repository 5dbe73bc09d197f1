// The reflection policy in one place: what goes back to the model, and when to stop.

export type FailureKind = 'edit' | 'syntax' | 'lint' | 'test';

export interface RoundFailures {
  readonly sections: string[];
  readonly kinds: FailureKind[];
}

export type ReflectionDecision =
  | { readonly action: 'done' }
  | { readonly action: 'reflect'; readonly message: string; readonly reason: string }
  | { readonly action: 'limit'; readonly reason: string };

/** Decides the next step after a round. `used` counts reflections already sent for this request. */
export function decideReflection(failures: RoundFailures, used: number, max: number): ReflectionDecision {
  if (failures.sections.length === 0) return { action: 'done' };
  const reason = [...new Set(failures.kinds)].join(', ');
  if (used >= max) return { action: 'limit', reason };
  return { action: 'reflect', message: failures.sections.join('\n\n'), reason };
}

/** Lint and test failures are fixed only with the user's say-so; edit format failures always go back. */
export function needsFixApproval(kinds: readonly FailureKind[]): boolean {
  return kinds.length > 0 && kinds.every((kind) => kind !== 'edit');
}
