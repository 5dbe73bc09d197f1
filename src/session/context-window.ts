// Before a request is sent: does it fit the model's context window? If not, say which part is too big.
import type { BuiltMessages } from '../coders/messages.js';
import { countParts } from '../coders/messages.js';
import type { TokenCounter } from '../coders/ports.js';

/** Below this share of the window (by a cheap estimate) nothing is counted exactly. */
const ESTIMATE_SAFE_SHARE = 0.6;

/** null when the request fits; otherwise a question for the user naming the largest part. */
export function checkContextWindow(built: BuiltMessages, window: number, tokens: TokenCounter): string | null {
  const estimate = built.messages.reduce((sum, m) => sum + m.content.length / 4, 0);
  if (estimate < window * ESTIMATE_SAFE_SHARE) return null;
  const parts = countParts(built, tokens);
  const total = parts.reduce((sum, p) => sum + p.tokens, 0);
  if (total <= window) return null;
  const largest = [...parts].sort((a, b) => b.tokens - a.tokens)[0]!;
  const detail = largest.name === 'chat files' ? largestFile(built, tokens) : '';
  return (
    `This request would be about ${total.toLocaleString('en-US')} tokens, more than the model's context window of ` +
    `${window.toLocaleString('en-US')}. The largest part is the ${largest.name} (${largest.tokens.toLocaleString('en-US')} tokens${detail}). ` +
    'Send it anyway?'
  );
}

/** ", mostly big.py at 60,000 tokens": the biggest file in the chat-files message. */
function largestFile(built: BuiltMessages, tokens: TokenCounter): string {
  const part = built.parts.find((p) => p.name === 'chat files');
  const text = part?.messages[0]?.content ?? '';
  const sections = text.split(/\n(?=\S+\n`{3,}\n)/);
  let best = { name: '', tokens: 0 };
  for (const section of sections) {
    const name = section.split('\n')[0] ?? '';
    const count = tokens.count(section);
    if (count > best.tokens) best = { name, tokens: count };
  }
  return best.name ? `, mostly ${best.name} at ${best.tokens.toLocaleString('en-US')} tokens` : '';
}
