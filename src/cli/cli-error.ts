// The CLI's one-line failure: ends the run with its message and an exit code of session/exit-codes.ts.
import { TandemError } from '../platform/errors.js';

/** A failure outside the model's control that ends the run with a one-line message. */
export class CliError extends TandemError {
  readonly kind = 'cli';

  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
