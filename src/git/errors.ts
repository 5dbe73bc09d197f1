// The one error type of the git layer: every git failure surfaces as a GitOperationError with a kind.
import { TandemError } from '../platform/errors.js';

export type GitErrorKind = 'not_a_repo' | 'path_outside_repo' | 'git_failed' | 'git_timeout' | 'operation_in_progress';

export class GitOperationError extends TandemError {
  /** Git's whole stderr (hints included), for the log; the message is one line. */
  override readonly detail: string;

  constructor(
    readonly kind: GitErrorKind,
    message: string,
    options?: { cause?: unknown; detail?: string },
  ) {
    super(message, options);
    this.detail = options?.detail ?? '';
    this.name = 'GitOperationError';
  }
}
