// --notifications: tells the user tandem waits for them (a reply finished, a question asked) once a
// request has run longer than a few seconds, with the terminal bell or the user's own command.
import type { Clock } from '../platform/clock.js';
import { escapeControlChars } from '../platform/control-chars.js';

/** Requests shorter than this end without a notification: the user is probably still looking. */
export const NOTIFY_AFTER_MS = 3000;

export interface NotifierOptions {
  readonly clock: Clock;
  /** Rings the terminal bell. */
  readonly bell: () => void;
  /** Runs the user's notifications command with the summary; null: ring the bell. */
  readonly command: ((summary: string) => void) | null;
  readonly afterMs?: number;
}

export class Notifier {
  private since: number | null = null;

  constructor(private readonly options: NotifierOptions) {}

  /** A request started: the clock for "longer than a few seconds" runs from now. */
  started(): void {
    this.since = this.options.clock.now().getTime();
  }

  /** tandem waits for the user now (`summary`: why, one line); the clock starts again from here. */
  waiting(summary: string): void {
    if (this.since === null) return;
    const now = this.options.clock.now().getTime();
    const long = now - this.since >= (this.options.afterMs ?? NOTIFY_AFTER_MS);
    this.since = now;
    if (!long) return;
    const line = escapeControlChars(summary.split('\n')[0] ?? '');
    if (this.options.command) this.options.command(line);
    else this.options.bell();
  }

  /** The request is over: questions after this are not part of it. */
  finished(summary: string): void {
    this.waiting(summary);
    this.since = null;
  }
}
