// The coder types under their first home, and the old way to get a built-in coder by name.
// The interface lives in coder.ts, the coders in formats/, their list in registry.ts.
import type { Coder, CoderFormat } from './coder.js';
import { CODERS } from './registry.js';

export type { ChatMode, Coder, CoderFormat } from './coder.js';

/** The built-in coder of `format`. Its prompts now come with it from the loader (coder-loader.ts), so `_prompts` is unused. */
export function createCoder(format: CoderFormat, _prompts?: unknown): Coder {
  return CODERS.get(format);
}
