// Running totals for a session: tokens (cached and reasoning ones too), cost, edits, commits, reflections.
import type { Usage } from '../model/types.js';
import type { Totals } from './events.js';

export class SessionTotals {
  requests = 0;
  promptTokens = 0;
  completionTokens = 0;
  cachedTokens = 0;
  reasoningTokens = 0;
  cost: number | null = null;
  editsApplied = 0;
  editsFailed = 0;
  commits = 0;
  reflections = 0;
  /** Cache keep-alive pings and what they cost (also counted in the tokens and cost above). */
  pings = 0;
  pingCost: number | null = null;

  addUsage(usage: Usage): void {
    this.promptTokens += usage.promptTokens;
    this.completionTokens += usage.completionTokens;
    this.cachedTokens += usage.cachedTokens;
    this.reasoningTokens += usage.reasoningTokens ?? 0;
    if (usage.cost !== null) this.cost = (this.cost ?? 0) + usage.cost;
  }

  addPing(usage: Usage): void {
    this.addUsage(usage);
    this.pings++;
    if (usage.cost !== null) this.pingCost = (this.pingCost ?? 0) + usage.cost;
  }

  snapshot(): Totals {
    return {
      requests: this.requests,
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      cachedTokens: this.cachedTokens,
      reasoningTokens: this.reasoningTokens,
      cost: this.cost,
      editsApplied: this.editsApplied,
      editsFailed: this.editsFailed,
      commits: this.commits,
      reflections: this.reflections,
    };
  }
}
