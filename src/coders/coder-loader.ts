// Hands out a coder with its prompt set: the registry says which coder a name is, the one prompt
// loader reads its prompts (once per coder).
import type { Coder, CoderFormat } from './coder.js';
import type { PromptLoader, PromptSet } from './prompt-set.js';
import type { CoderRegistry } from './registry.js';

export interface LoadedCoder {
  readonly coder: Coder;
  readonly prompts: PromptSet;
}

/** Loads the coder of a name: an edit format, or a coder that is a chat mode of its own (architect, context). */
export type CoderLoader = (name: CoderFormat) => Promise<LoadedCoder>;

export function createCoderLoader(registry: CoderRegistry, prompts: PromptLoader): CoderLoader {
  return async (name) => {
    const coder = registry.get(name);
    return { coder, prompts: await prompts.forCoder(coder) };
  };
}
