// Prompt text as data: reading one format's files, filling placeholders, splitting examples into turns.
// Files come through a reader (platform/prompt-files.ts in the CLI, an overlay in tests): no I/O here.
import type { ChatMessage } from '../model/types.js';
import type { PromptReader } from '../platform/prompt-files.js';

export type { PromptReader } from '../platform/prompt-files.js';
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

/** Reads `prompts/<id>` (e.g. `reflection/lint.md`), or '' when absent and `optional`. */
export async function readPrompt(read: PromptReader, id: string, optional = false): Promise<string> {
  const text = await read(id);
  if (text !== null) return text;
  if (optional) return '';
  throw new Error(`tandem's prompt file prompts/${id} is missing: reinstall tandem`);
}


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

/** A format's own files in `prompts/<folder>/`: system.md, and examples.md and reminder.md when it has them. */
export async function loadFormatPrompts(read: PromptReader, folder: string, values: PromptValues): Promise<FormatPrompts> {
  const fill = (text: string): string => fillPlaceholders(text, { ...values }).trim();
  const [system, examples, reminder] = await Promise.all([
    readPrompt(read, `${folder}/system.md`),
    readPrompt(read, `${folder}/examples.md`, true),
    readPrompt(read, `${folder}/reminder.md`, true),
  ]);
  return {
    system: fill(system),
    examples: parseExamples(examples).map((turn) => ({ role: turn.role, content: fill(turn.content) })),
    reminder: fill(reminder),
  };
}
