// Asks the weak model for a one-line commit message; falls back to a plain message when it can't.
import type { ModelClient } from '../model/types.js';

const MAX_DIFF_CHARS = 12_000;

export function fallbackCommitMessage(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(', ');
  const more = paths.length > 3 ? ` and ${paths.length - 3} more` : '';
  return `chore: update ${shown}${more}`;
}

/** First non-empty line, without fences, quotes or a trailing period, at most 100 characters. */
export function cleanCommitMessage(text: string): string | null {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('```'));
  if (!line) return null;
  const cleaned = line.replace(/^["'`]+|["'`]+$/g, '').replace(/\.$/, '').trim();
  if (cleaned === '') return null;
  return cleaned.length > 100 ? `${cleaned.slice(0, 97)}...` : cleaned;
}

export async function writeCommitMessage(options: {
  readonly client: ModelClient;
  readonly model: string;
  readonly systemPrompt: string;
  readonly diff: string;
  readonly paths: readonly string[];
  readonly context?: string;
}): Promise<string> {
  const diff = options.diff.length > MAX_DIFF_CHARS ? `${options.diff.slice(0, MAX_DIFF_CHARS)}\n... (diff cut)` : options.diff;
  const intro = options.context ? `Request: ${options.context.slice(0, 500)}\n\n` : '';
  const result = await options.client.chat({
    model: options.model,
    stream: false,
    messages: [
      { role: 'system', content: options.systemPrompt },
      { role: 'user', content: `${intro}${diff}` },
    ],
  });
  if (!result.ok) return fallbackCommitMessage(options.paths);
  return cleanCommitMessage(result.text) ?? fallbackCommitMessage(options.paths);
}
