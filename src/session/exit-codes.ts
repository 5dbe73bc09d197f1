// The one exit-code table of DESIGN.md, how a request's final status maps onto it, and how several
// requests' outcomes combine. Here rather than in cli/ because `tandem eval` (below cli/) exits with
// the same codes.
import type { ResultStatus } from './events.js';

export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  reflectionLimit: 3,
  approvalRequired: 4,
  interrupted: 130,
} as const;

export function exitCodeFor(status: ResultStatus): number {
  switch (status) {
    case 'completed':
      return EXIT.ok;
    case 'reflection_limit':
      return EXIT.reflectionLimit;
    case 'approval_required':
      return EXIT.approvalRequired;
    case 'interrupted':
      return EXIT.interrupted;
    case 'error':
      return EXIT.error;
  }
}

// Several requests (lines on stdin) end with the most severe outcome: interrupted, then error, then
// reflection limit, then approval needed, then completed.
const SEVERITY: readonly ResultStatus[] = ['completed', 'approval_required', 'reflection_limit', 'error', 'interrupted'];

export function mostSevere(a: ResultStatus, b: ResultStatus): ResultStatus {
  return SEVERITY.indexOf(b) > SEVERITY.indexOf(a) ? b : a;
}
