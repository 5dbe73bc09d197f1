// Asks the weak model for a one-line commit message, then the main model once; when neither answers, a
// plain message that says it is a fallback. One attempt each: a commit must not wait on retries.
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

/** What a commit message says when no model wrote it. */
export const FALLBACK_NOTE = '(fallback message: no model answered)';

export async function writeCommitMessage(options: {
  readonly client: ModelClient;
  readonly model: string;
  /** Asked once when `model` gives no message (the main model; the same name is asked again). */
  readonly fallbackModel?: string;
  readonly systemPrompt: string;
  readonly diff: string;
  readonly paths: readonly string[];
  readonly context?: string;
}): Promise<string> {
  const diff = options.diff.length > MAX_DIFF_CHARS ? `${options.diff.slice(0, MAX_DIFF_CHARS)}\n... (diff cut)` : options.diff;
  const intro = options.context ? `Request: ${options.context.slice(0, 500)}\n\n` : '';
  const messages = [
    { role: 'system' as const, content: options.systemPrompt },
    { role: 'user' as const, content: `${intro}${diff}` },
  ];
  for (const model of [options.model, ...(options.fallbackModel ? [options.fallbackModel] : [])]) {
    const result = await options.client.chat({ model, stream: false, messages, maxRetries: 0 });
    const message = result.ok ? cleanCommitMessage(result.text) : null;
    if (message !== null) return message;
  }
  return `${fallbackCommitMessage(options.paths)} ${FALLBACK_NOTE}`;
}
