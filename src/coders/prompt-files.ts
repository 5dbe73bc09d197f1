// Loads prompt text from the prompts/ folder by id. Prompts are data: no prompt text lives in code.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage } from '../model/types.js';
import { fillPlaceholders } from '../platform/placeholders.js';

export interface FormatPrompts {
  readonly system: string;
  readonly examples: ChatMessage[];
  readonly reminder: string;
}

export interface PromptValues {
  readonly fence: string;
  readonly platform: string;
}

/** Reads `prompts/<id>` (e.g. `reflection/failed-edits.md`), or '' when absent and `optional`. */
export async function readPrompt(promptsDir: string, id: string, optional = false): Promise<string> {
  try {
    return await readFile(join(promptsDir, id), 'utf8');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

export { fillPlaceholders } from '../platform/placeholders.js';

/**
 * Splits an examples file into chat turns. Turns start with a heading line `#### user` or
 * `#### assistant`; everything up to the next such heading is the turn's text.
 */
export function parseExamples(text: string): ChatMessage[] {
  const turns: ChatMessage[] = [];
  let role: 'user' | 'assistant' | null = null;
  let lines: string[] = [];
  const flush = (): void => {
    if (role) turns.push({ role, content: lines.join('\n').trim() });
  };
  for (const line of text.split('\n')) {
    const heading = /^####\s+(user|assistant)\s*$/i.exec(line);
    if (heading) {
      flush();
      role = heading[1]!.toLowerCase() as 'user' | 'assistant';
      lines = [];
    } else if (role) {
      lines.push(line);
    }
  }
  flush();
  return turns;
}

export async function loadFormatPrompts(promptsDir: string, format: string, values: PromptValues): Promise<FormatPrompts> {
  const fill = (text: string): string => fillPlaceholders(text, { ...values }).trim();
  const [system, examples, reminder] = await Promise.all([
    readPrompt(promptsDir, `${format}/system.md`),
    readPrompt(promptsDir, `${format}/examples.md`, true),
    readPrompt(promptsDir, `${format}/reminder.md`, true),
  ]);
  return {
    system: fill(system),
    examples: parseExamples(examples).map((turn) => ({ role: turn.role, content: fill(turn.content) })),
    reminder: fill(reminder),
  };
}
