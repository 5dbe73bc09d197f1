// Turns a burst of file-system events into one: editors save by writing a temp file and renaming it,
// git rewrites many files at once. The burst ends after a quiet spell, and never while git holds its
// index lock (a checkout, pull, rebase or stash in progress).

export interface BurstTimer {
  /** Runs `fn` after `ms`; returns a cancel function. */
  after(ms: number, fn: () => void): () => void;
}

export interface Burst {
  /** Repository paths that changed, sorted. */
  readonly files: readonly string[];
  /** HEAD or the stash moved during the burst (checkout, reset, merge, rebase, stash). */
  readonly git: boolean;
}

export interface SaveBurstOptions {
  readonly timer: BurstTimer;
  readonly onBurst: (burst: Burst) => void;
  /** Quiet time that ends a burst. */
  readonly quietMs?: number;
  /** Whether git is in the middle of changing the work tree (its index lock exists). */
  readonly gitBusy?: () => boolean;
}

const DEFAULT_QUIET_MS = 250;

export class SaveBurst {
  private files = new Set<string>();
  private git = false;
  private cancel: (() => void) | null = null;
  private readonly quietMs: number;

  constructor(private readonly options: SaveBurstOptions) {
    this.quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
  }

  file(path: string): void {
    this.files.add(path);
    this.restart();
  }

  gitMoved(): void {
    this.git = true;
    this.restart();
  }

  /** Whether a burst is open (events seen, not yet handed on). */
  get open(): boolean {
    return this.cancel !== null;
  }

  /** Drops the open burst (watching stopped). */
  stop(): void {
    this.cancel?.();
    this.cancel = null;
    this.files = new Set();
    this.git = false;
  }

  private restart(): void {
    this.cancel?.();
    this.cancel = this.options.timer.after(this.quietMs, () => this.end());
  }

  private end(): void {
    this.cancel = null;
    if (this.options.gitBusy?.() === true) {
      // git is still writing the work tree: wait until it is done.
      this.restart();
      return;
    }
    const burst: Burst = { files: [...this.files].sort(), git: this.git };
    this.files = new Set();
    this.git = false;
    if (burst.files.length > 0 || burst.git) this.options.onBurst(burst);
  }
}
