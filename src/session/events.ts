// The typed events a session emits. Renderers (terminal, JSON lines) subscribe; core code never prints.
import type { RoundEvent } from '../round/round-events.js';
import type { ShellEvent } from '../round/shell-offer.js';
import type { Usage } from '../model/types.js';
import type { ResultStatus } from '../round/outcome.js';

export type { ResultStatus } from '../round/outcome.js';

export interface Totals {
  readonly requests: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Prompt tokens served from the server's cache (a part of promptTokens). */
  readonly cachedTokens?: number;
  /** Completion tokens spent reasoning, when the server says (a part of completionTokens). */
  readonly reasoningTokens?: number;
  readonly cost: number | null;
  readonly editsApplied: number;
  readonly editsFailed: number;
  readonly commits: number;
  readonly reflections: number;
}

export type SessionEvent =
  | RoundEvent
  | {
      readonly type: 'session';
      readonly model: string;
      readonly editFormat: string;
      readonly files: string[];
      readonly readOnly: string[];
      /** Present when commands run in a sandbox: how (`commands sandboxed (bubblewrap, no network)`). */
      readonly sandbox?: string;
    }
  | { readonly type: 'user'; readonly text: string; readonly mode: string }
  | { readonly type: 'waiting' }
  | { readonly type: 'assistant_delta'; readonly text: string }
  | { readonly type: 'assistant'; readonly text: string; readonly interrupted: boolean }
  /** The model's reasoning, shown apart from the reply: streamed in deltas, then whole before `assistant`. */
  | { readonly type: 'reasoning_delta'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'reflection'; readonly n: number; readonly reason: string }
  | {
      readonly type: 'question';
      readonly text: string;
      readonly answer: boolean;
      /** Who answered: the person at the terminal, --yes-always, or nobody (headless: the answer is no). */
      readonly answeredBy: 'user' | 'yes-always' | 'nobody';
      /** Only a person may answer it: --yes-always does not (suggested commands, files that change what runs). */
      readonly personOnly?: boolean;
    }
  /** A reply's usage (see Usage) and what the session has cost so far; the call's timing when a clock was given. */
  | ({ readonly type: 'usage'; readonly sessionCost: number | null } & Usage & ModelCallFacts)
  | ShellEvent
  | { readonly type: 'warning'; readonly message: string }
  | { readonly type: 'error'; readonly message: string }
  /** One request is over (the run's `result` comes once, at the end): traces close the request here. */
  | { readonly type: 'request_end'; readonly status: ResultStatus }
  | { readonly type: 'result'; readonly status: ResultStatus; readonly totals: Totals };

/** What a model call was and how long it took (for traces; absent when the session has no clock). */
export interface ModelCallFacts {
  readonly model?: string;
  readonly finishReason?: string | null;
  /** From sending the request to the end of the reply. */
  readonly durationMs?: number;
  /** From sending the request to the first text or reasoning delta. */
  readonly firstTokenMs?: number;
}

export type EmitEvent = (event: SessionEvent) => void;
