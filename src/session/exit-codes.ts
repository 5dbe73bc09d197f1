// Exit codes of DESIGN.md, and how a request's final status maps onto them. Here rather than in cli/
// because `tandem eval` (below cli/) exits with the same codes.
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
