// The events one round of a request produces (edits, commits, checks, suggested commands, reflections);
// the session's event union includes them, so renderers see one stream.
import type { ShellEvent } from './shell-offer.js';

export type RoundEvent =
  | {
      readonly type: 'edit';
      readonly path: string;
      readonly status: 'applied' | 'failed' | 'denied' | 'planned';
      readonly diff?: string;
      readonly error?: string;
      /** A failed edit's whole explanation (the closest lines of the file), as the model gets it. */
      readonly detail?: string;
      /** How many of the reply's edit blocks an applied file took. */
      readonly blocks?: number;
      /** The matching rungs that placed those blocks (`exact` unless the ladder had to allow for something). */
      readonly rungs?: readonly string[];
    }
  | ({ readonly type: 'commit'; readonly hash: string; readonly message: string; readonly files: string[]; readonly user: boolean } & StepTiming)
  /** `check: 'syntax'` marks the built-in syntax check, reported as a failed lint. */
  | ({ readonly type: 'lint'; readonly ok: boolean; readonly output: string; readonly check?: 'syntax' } & CheckFacts)
  | ({ readonly type: 'test'; readonly ok: boolean; readonly output: string } & CheckFacts)
  | { readonly type: 'info'; readonly message: string }
  | { readonly type: 'warning'; readonly message: string }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'reflection'; readonly n: number; readonly reason: string }
  | ShellEvent;

/** How long a step took, when the session has a clock (traces and `tandem trace` use it). */
export interface StepTiming {
  readonly durationMs?: number;
}

/** The command a check ran and how it ended, when known. */
export interface CheckFacts extends StepTiming {
  readonly command?: string;
  readonly exitCode?: number | null;
}

export type EmitRoundEvent = (event: RoundEvent) => void;
