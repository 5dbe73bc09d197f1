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
      entry = loadPromptSet(promptsDir, kind, { fence: '```', platform: platform() }).then((prompts) => ({
        coder: createCoder(kind === 'architect' ? 'ask' : (kind as CoderFormat), prompts.format),
        prompts,
      }));
      loaded.set(kind, entry);
    }
    return entry;
  };
}
