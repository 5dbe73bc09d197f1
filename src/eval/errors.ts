// The eval harness's own failures: bad exercises, unknown runs. Each ends `tandem eval` with one line.
import { TandemError } from '../platform/errors.js';

export type EvalErrorKind = 'bad_exercise' | 'no_exercises' | 'run_not_found' | 'bad_run';

export class EvalError extends TandemError {
  constructor(
    readonly kind: EvalErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'EvalError';
  }
}
