// tandem's commit of what a round wrote: a one-line message from the weak model (the main model as
// fallback), exactly the written paths, and the commit event.
import type { GitPort } from '../coders/ports.js';
import type { ModelClient } from '../model/types.js';
import type { Clock } from '../platform/clock.js';
import { stepTimer } from './check-round.js';
import { writeCommitMessage } from './commit-message.js';
import type { EmitRoundEvent } from './round-events.js';
import type { CommitWritten } from './write-change.js';

export interface CommitChangeDeps {
  readonly git: GitPort;
  /** The weak model's client, which writes the message. */
  readonly client: ModelClient;
  readonly models: { readonly weak: string; readonly main: string };
  /** The commit message prompt of the coder. */
  readonly systemPrompt: string;
  /** The user's request, for the message's context. */
  readonly request: string | undefined;
  readonly emit: EmitRoundEvent;
  readonly totals: { commits: number };
  readonly clock?: Clock;
}

export function commitChange(deps: CommitChangeDeps): CommitWritten {
  return async (paths, diff) => {
    const timer = stepTimer(deps.clock);
    const message = await writeCommitMessage({ client: deps.client, model: deps.models.weak, fallbackModel: deps.models.main, systemPrompt: deps.systemPrompt, diff, paths, context: deps.request });
    const hash = await deps.git.commitTandemChange(paths, message);
    if (!hash) return;
    deps.totals.commits++;
    deps.emit({ type: 'commit', hash, message, files: paths, user: false, ...timer() });
  };
}
