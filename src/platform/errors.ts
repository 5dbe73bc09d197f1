// The one error base. A failure tandem expects (git, disk, a lock, a refused path, a bad option) is a
// TandemError with a `kind`: it ends the request with one line. Anything else is a bug and is rethrown.

export abstract class TandemError extends Error {
  /** What went wrong, for code to branch on; each subclass narrows it to its own kinds. */
  abstract readonly kind: string;
  /** A long form for the session log (git's hints, say); the message itself is one line. */
  declare readonly detail?: string;
}

/** True for tandem's typed failures, false for bugs (a TypeError, anything thrown from elsewhere). */
export function isTandemError(error: unknown): error is TandemError {
  return error instanceof TandemError;
}
