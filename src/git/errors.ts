// The one error type of the git layer: every git failure surfaces as a GitOperationError with a kind.

export type GitErrorKind = 'not_a_repo' | 'path_outside_repo' | 'git_failed';

export class GitOperationError extends Error {
  constructor(
    readonly kind: GitErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GitOperationError';
  }
}
