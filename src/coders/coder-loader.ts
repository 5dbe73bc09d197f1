// Loads each coder's prompts once per process and hands out the coder for a format (or the architect).
import { platform } from 'node:os';
import { join } from 'node:path';
import { createCoder, type CoderFormat } from '../coders/base-coder.js';
import { loadPromptSet } from '../coders/prompt-set.js';
import type { CoderLoader, LoadedCoder } from '../session/session.js';

export function createCoderLoader(packageRoot: string): CoderLoader {
  const promptsDir = join(packageRoot, 'prompts');
  const loaded = new Map<string, Promise<LoadedCoder>>();
  return (kind) => {
    let entry = loaded.get(kind);
    if (!entry) {
      // prompts/context/ holds the context parts every request shares; context mode's own are in context-mode/
      const folder = kind === 'context' ? 'context-mode' : kind;
      entry = loadPromptSet(promptsDir, folder, { fence: '```', platform: platform() }).then((prompts) => ({
        coder: createCoder(kind === 'architect' || kind === 'context' ? 'ask' : (kind as CoderFormat), prompts.format),
        prompts,
      }));
      loaded.set(kind, entry);
    }
    return entry;
  };
}
