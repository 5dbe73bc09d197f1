// The chat's reasoning controls: the effort and thinking budget the user asked for (flags, then
// /reasoning-effort and /think-tokens), read by every request, and the one-line notice for a model that
// does not take them.
import { reasoningNotice, type ReasoningChoice } from '../model/model-profile.js';
import type { ModelProfile } from '../model/model-profile.js';
import type { ReasoningEffort } from '../model/request-body.js';

export class ReasoningControls {
  private choice: ReasoningChoice;

  constructor(
    start: ReasoningChoice,
    /** false (--no-check-model-accepts-settings): sent to every model. */
    readonly checkAccepts: boolean,
  ) {
    this.choice = start;
  }

  get current(): ReasoningChoice {
    return this.choice;
  }

  setEffort(effort: ReasoningEffort | null): void {
    this.choice = { ...this.choice, effort };
  }

  setThinkingTokens(tokens: number | null): void {
    this.choice = { ...this.choice, thinkingTokens: tokens };
  }

  /** What `profile`'s model will not be sent of the current choice, in one line; null when it takes it all. */
  noticeFor(profile: ModelProfile): string | null {
    return reasoningNotice(profile.settings, this.choice, this.checkAccepts);
  }
}
