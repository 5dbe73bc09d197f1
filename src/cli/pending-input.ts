// Inputs between the keyboard and the chat: a line nobody is waiting for is queued (and runs as the
// next request); a reader waiting for a line gets the next one at once. Besides typed lines, watch mode
// hands in its triggers here, so they queue like type-ahead.
import type { WatchRequest } from '../watch/watch-request.js';

/** A request that did not come from the keyboard: a watch-mode trigger. */
export interface WatchInput {
  readonly kind: 'watch';
  readonly request: WatchRequest;
}

export type ChatInput = string | WatchInput;

export class PendingInput<T = string> {
  private readonly queued: T[] = [];
  private waiting: ((line: T | null) => void) | null = null;

  /** Whether a reader waits for a line now (its prompt is shown). */
  get isWaiting(): boolean {
    return this.waiting !== null;
  }

  get size(): number {
    return this.queued.length;
  }

  /** Hands `line` to the waiting reader; false when nobody waits and it was queued. */
  deliver(line: T): boolean {
    const resolve = this.waiting;
    if (!resolve) {
      this.queued.push(line);
      return false;
    }
    this.waiting = null;
    resolve(line);
    return true;
  }

  /** The oldest queued line, taken off the queue. */
  next(): T | undefined {
    return this.queued.shift();
  }

  /** Waits for the next line; `onWaiting` runs once the reader is registered (to show the prompt). */
  wait(onWaiting: () => void): Promise<T | null> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      onWaiting();
    });
  }

  /** The input ended: a waiting reader gets null. */
  end(): void {
    this.waiting?.(null);
    this.waiting = null;
  }

  /** Forgets the queued lines; returns how many there were. */
  clear(): number {
    return this.queued.splice(0).length;
  }
}
