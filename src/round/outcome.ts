// How a request ends, and how one round of it ends: the values the round hands back to the session.

export type ResultStatus = 'completed' | 'reflection_limit' | 'approval_required' | 'error' | 'interrupted';

export interface RequestOutcome {
  readonly status: ResultStatus;
  readonly message?: string;
}

/** How one step of a request ends: the request is over, or the next message goes to the model. */
export type StepResult = { readonly end: RequestOutcome } | { readonly next: string };
