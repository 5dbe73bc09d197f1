// Fits the ranked definitions into a token budget: the largest prefix whose rendered map fits
// (guessed from tokens per item, then interpolated), then a greedy pass that adds later items that still fit. Never over.

import type { RankedItem } from './rank.js';

export interface FitOptions {
  /** Hard cap on the map's tokens. */
  readonly budget: number;
  readonly count: (text: string) => number;
  /** Renders items as per-file blocks whose concatenation is the map. */
  readonly renderBlocks: (items: readonly RankedItem[]) => string[];
  /** How many items past the prefix the greedy pass may try. */
  readonly fillAttempts?: number;
  /**
   * Token counts of blocks already counted with this very `count`, kept by the caller between fits
   * (a new chat set or budget renders mostly the same blocks); filled as blocks are counted.
   */
  readonly blockTokens?: Map<string, number>;
}

/** A shared blockTokens map is emptied past this many blocks (a few MB of text). */
export const BLOCK_TOKENS_KEPT = 8192;

export interface FitResult {
  readonly text: string;
  readonly tokens: number;
  readonly items: readonly RankedItem[];
  /** Count of leading ranked items that fit as a prefix. */
  readonly prefix: number;
  /** Prefixes rendered to find it (the greedy fill and the final text not counted). */
  readonly searchRenders?: number;
}

export interface BudgetGrowth {
  /**
   * With no files in the chat the map is all the model sees of the code, so the budget grows by
   * this factor (--map-multiplier-no-files, default 2), capped by maxBudget.
   */
  readonly noChatMultiplier?: number;
  /** Hard ceiling for the map with no chat files (an eighth of the model's context window). */
  readonly maxBudget?: number;
}

export const DEFAULT_NO_CHAT_MULTIPLIER = 2;

/**
 * The budget actually used. With files in the chat: --map-tokens. Without: multiplier x
 * --map-tokens, and never above maxBudget, even when --map-tokens alone is larger.
 */
export function effectiveBudget(budget: number, chatFileCount: number, growth: BudgetGrowth = {}): number {
  if (budget <= 0) return 0;
  if (chatFileCount > 0) return budget;
  const grown = Math.floor(budget * Math.max(1, growth.noChatMultiplier ?? DEFAULT_NO_CHAT_MULTIPLIER));
  return Math.min(grown, growth.maxBudget ?? grown);
}

/**
 * Sums per-block counts, remembering each block: between two probes most blocks are unchanged.
 * Used only to steer the search; the final text is always counted as a whole.
 */
function blockCounter(options: FitOptions): (items: readonly RankedItem[]) => number {
  const known = options.blockTokens ?? new Map<string, number>();
  if (known.size > BLOCK_TOKENS_KEPT) known.clear();
  return (items) => {
    let total = 0;
    for (const block of options.renderBlocks(items)) {
      let tokens = known.get(block);
      if (tokens === undefined) {
        tokens = options.count(block);
        known.set(block, tokens);
      }
      total += tokens;
    }
    return total;
  };
}

/**
 * The largest k (up to `length`) with tokensAt(k) <= budget, for a count that grows with k. Each
 * probe renders a prefix, so the search guesses from the counts it has: past the last fitting
 * prefix by its tokens per item, then inside the bracket by interpolation (every third probe halves
 * the bracket, so an uneven count cannot stall it). A map of a few hundred items takes 4-7 probes.
 */
export function largestPrefix(length: number, budget: number, tokensAt: (k: number) => number): number {
  let low = 0;
  let lowTokens = 0;
  let high = length + 1;
  let highTokens = Infinity;
  let guess = Math.min(8, length);
  for (let probe = 1; high - low > 1; probe++) {
    const k = Math.max(low + 1, Math.min(high - 1, guess));
    const tokens = tokensAt(k);
    if (tokens <= budget) {
      low = k;
      lowTokens = tokens;
    } else {
      high = k;
      highTokens = tokens;
    }
    if (high > length) guess = lowTokens > 0 ? Math.ceil((low * budget) / lowTokens) : low * 2;
    else if (probe % 3 === 0 || highTokens <= lowTokens) guess = (low + high) >> 1;
    else guess = low + Math.floor(((budget - lowTokens) * (high - low)) / (highTokens - lowTokens));
  }
  return low;
}

function pathOf(item: RankedItem): string {
  return item.kind === 'def' ? item.tag.path : item.path;
}

/**
 * After the prefix, add later items that still fit. A definition that does not fit may still leave
 * room for its file's path alone, which keeps small budgets nearly full and still tells the model
 * the file exists. Blocks are per file, so a try re-renders and re-counts only its file's block.
 */
function greedyFill(items: readonly RankedItem[], prefix: number, options: FitOptions, estimate: (items: readonly RankedItem[]) => number): RankedItem[] {
  const chosen = items.slice(0, prefix);
  const byFile = new Map<string, RankedItem[]>();
  for (const item of chosen) byFile.set(pathOf(item), [...(byFile.get(pathOf(item)) ?? []), item]);
  const blockTokens = new Map<string, number>();
  for (const [path, fileItems] of byFile) blockTokens.set(path, estimate(fileItems));
  const attempts = options.fillAttempts ?? 200;
  let used = estimate(chosen);
  const tryAdd = (item: RankedItem): boolean => {
    const path = pathOf(item);
    const fileItems = [...(byFile.get(path) ?? []), item];
    const block = estimate(fileItems);
    const tokens = used - (blockTokens.get(path) ?? 0) + block;
    if (tokens > options.budget) return false;
    chosen.push(item);
    byFile.set(path, fileItems);
    blockTokens.set(path, block);
    used = tokens;
    return true;
  };
  for (let i = prefix; i < items.length && i < prefix + attempts && used < options.budget; i++) {
    const item = items[i];
    if (item === undefined) break;
    if (i > prefix && tryAdd(item)) continue;
    if (item.kind === 'def' && !byFile.has(item.tag.path)) tryAdd({ kind: 'file', path: item.tag.path, rank: item.rank });
  }
  return chosen;
}

/** The map for the best-ranked items whose exact token count is at most the budget. */
export function fitToBudget(items: readonly RankedItem[], options: FitOptions): FitResult {
  const empty: FitResult = { text: '', tokens: 0, items: [], prefix: 0 };
  if (options.budget <= 0 || items.length === 0) return empty;
  const estimate = blockCounter(options);
  let searchRenders = 0;
  const prefix = largestPrefix(items.length, options.budget, (k) => {
    searchRenders++;
    return estimate(items.slice(0, k));
  });
  let chosen = greedyFill(items, prefix, options, estimate);
  // The block sum equals the whole count for BPE tokenizers that split at line starts; verify anyway
  // and shrink with exact counts if an unusual counter disagrees.
  for (;;) {
    const text = options.renderBlocks(chosen).join('');
    const tokens = options.count(text);
    if (tokens <= options.budget) return { text, tokens, items: chosen, prefix: Math.min(prefix, chosen.length), searchRenders };
    if (chosen.length === 0) return empty;
    const exact = (k: number): number => options.count(options.renderBlocks(chosen.slice(0, k)).join(''));
    const keep = largestPrefix(chosen.length - 1, options.budget, exact);
    chosen = chosen.slice(0, keep);
  }
}
