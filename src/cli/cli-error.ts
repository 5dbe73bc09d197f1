// How several requests' outcomes combine, and the CLI's one-line failure (the exit codes themselves
// live in session/exit-codes.ts, shared with eval).
import type { ResultStatus } from '../session/events.js';

// Several requests (lines on stdin) end with the most severe outcome: interrupted, then error, then
// reflection limit, then approval needed, then completed.
const SEVERITY: readonly ResultStatus[] = ['completed', 'approval_required', 'reflection_limit', 'error', 'interrupted'];

export function mostSevere(a: ResultStatus, b: ResultStatus): ResultStatus {
  return SEVERITY.indexOf(b) > SEVERITY.indexOf(a) ? b : a;
}

/** A failure outside the model's control that ends the run with a one-line message. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
