// Fits the ranked definitions into a token budget: the largest prefix whose rendered map fits
// (galloping + binary search), then a greedy pass that adds later items that still fit. Never over.

import type { RankedItem } from './rank.js';

export interface FitOptions {
  /** Hard cap on the map's tokens. */
  readonly budget: number;
  readonly count: (text: string) => number;
  /** Renders items as per-file blocks whose concatenation is the map. */
  readonly renderBlocks: (items: readonly RankedItem[]) => string[];
  /** How many items past the prefix the greedy pass may try. */
  readonly fillAttempts?: number;
}

export interface FitResult {
  readonly text: string;
  readonly tokens: number;
  readonly items: readonly RankedItem[];
  /** Count of leading ranked items that fit as a prefix. */
  readonly prefix: number;
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
  const known = new Map<string, number>();
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

function largestPrefix(items: readonly RankedItem[], fits: (k: number) => boolean): number {
  let low = 0;
  let high = items.length + 1;
  // Gallop first so probes stay near the answer and never render the whole ranked list needlessly.
  for (let k = Math.min(8, items.length); ; k = Math.min(items.length, k * 2)) {
    if (!fits(k)) {
      high = k;
      break;
    }
    low = k;
    if (k === items.length) return k;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid;
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
  const prefix = largestPrefix(items, (k) => estimate(items.slice(0, k)) <= options.budget);
  let chosen = greedyFill(items, prefix, options, estimate);
  // The block sum equals the whole count for BPE tokenizers that split at line starts; verify anyway
  // and shrink with exact counts if an unusual counter disagrees.
  for (;;) {
    const text = options.renderBlocks(chosen).join('');
    const tokens = options.count(text);
    if (tokens <= options.budget) return { text, tokens, items: chosen, prefix: Math.min(prefix, chosen.length) };
    if (chosen.length === 0) return empty;
    const exact = (k: number): boolean => options.count(options.renderBlocks(chosen.slice(0, k)).join('')) <= options.budget;
    const keep = largestPrefix(chosen.slice(0, chosen.length - 1), exact);
    chosen = chosen.slice(0, keep);
  }
}
