// The one token-counter shape: what every budget, cut and /tokens report asks of the model's tokenizer.
// The real one is model/tokens.ts (tiktoken); tests pass a few-line approximation.

export interface TokenCounter {
  count(text: string): number;
}
