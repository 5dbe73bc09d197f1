// The exit codes (defined in session/exit-codes.ts, shared with eval) and the CLI's one-line failure.
export { EXIT, exitCodeFor } from '../session/exit-codes.js';

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
