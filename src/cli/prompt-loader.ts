// The composition root's one prompt loader: the package's prompts/ folder, read through the platform's
// reader, with this system's placeholders filled. start.ts makes one per run and hands it on.
import { platform } from 'node:os';
import { join } from 'node:path';
import { createPromptLoader, type PromptLoader } from '../coders/prompt-set.js';
import { createPromptReader } from '../platform/prompt-files.js';

export function createPrompts(packageRoot: string): PromptLoader {
  return createPromptLoader(createPromptReader(join(packageRoot, 'prompts')), { fence: '```', platform: platform() });
}
