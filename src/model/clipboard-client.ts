// --copy-paste: a model with no API. Each request's whole prompt goes to the clipboard as Markdown; the
// reply is whatever text appears on the clipboard next (polled; Ctrl-C stops the wait). What comes back is
// treated exactly like a model's reply: parsed, approved, applied and checked the same way.
import { renderContext } from '../context/chat-markdown.js';
import type { Clipboard } from '../platform/clipboard.js';
import { modelError } from './errors.js';
import type { ChatRequest, ChatResult, ModelClient } from './types.js';

export interface ClipboardClientOptions {
  readonly clipboard: Pick<Clipboard, 'readText' | 'writeText'>;
  readonly pollMs: number;
  /** Resolves after `ms`, or early when the signal aborts. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told when the prompt is on the clipboard and the wait starts. */
  readonly onWaiting?: (characters: number) => void;
}

const NO_USAGE = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cost: null };

export function createClipboardClient(options: ClipboardClientOptions): ModelClient {
  return {
    async chat(request: ChatRequest): Promise<ChatResult> {
      const prompt = renderContext(request.messages);
      const written = await options.clipboard.writeText(prompt);
      if (!written.ok) return failure('connection', `--copy-paste cannot use the clipboard: ${written.message}.`);
      options.onWaiting?.(prompt.length);
      for (;;) {
        await options.sleep(options.pollMs, request.signal);
        if (request.signal?.aborted) return failure('aborted', 'The request was cancelled.');
        const read = await options.clipboard.readText();
        if (!read.ok) return failure('connection', `--copy-paste cannot read the clipboard: ${read.message}.`);
        if (read.value.trim() === '' || read.value === prompt) continue;
        request.onText?.(read.value);
        return { ok: true, text: read.value, usage: NO_USAGE, finishReason: 'stop' };
      }
    },
  };
}

/** The weak model in --copy-paste mode: commit messages and summaries fall back to tandem's own. */
export const NO_MODEL: ModelClient = {
  chat: () => Promise.resolve(failure('not_found', 'No model in --copy-paste mode.')),
};

function failure(kind: 'connection' | 'aborted' | 'not_found', message: string): ChatResult {
  return { ok: false, error: modelError(kind, message), partialText: '', usage: null };
}
