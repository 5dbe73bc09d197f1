// One reply as it arrives, split into reasoning and answer: the reasoning field's deltas and a leading
// think block in the content go to onReasoning, the rest to onText.
import { createThinkSplitter, splitOrphanClose, type ContentPiece } from './think-tags.js';
import type { ChatRequest } from './types.js';

export interface ReplyCollector {
  /** A delta of the separate reasoning field. */
  reasoningField(delta: string | null | undefined): void;
  /** A delta of the content, which may open with a think block. */
  content(delta: string | null | undefined): void;
  /** Something already reached the user, so a retry would show it twice. */
  delivered(): boolean;
  /** The answer text so far (never the reasoning). */
  partialText(): string;
  /** The whole reply; an unclosed think block leaves no answer at all. */
  finish(): { text: string; reasoning: string };
}

/**
 * Collects the reply as it arrives: reasoning (from its own field, or a leading think block in the
 * content) goes to onReasoning, the answer to onText, and neither ever mixes with the other.
 */
export function createReplyCollector(request: ChatRequest, reasoningTag: string | null = null): ReplyCollector {
  const splitter = createThinkSplitter(reasoningTag);
  let text = '';
  let reasoning = '';
  const deliver = (piece: ContentPiece): void => {
    if (piece.reasoning) {
      reasoning += piece.reasoning;
      request.onReasoning?.(piece.reasoning);
    }
    if (piece.text) {
      text += piece.text;
      request.onText?.(piece.text);
    }
  };
  return {
    reasoningField(delta: string | null | undefined): void {
      if (!delta) return;
      reasoning += delta;
      request.onReasoning?.(delta);
    },
    content(delta: string | null | undefined): void {
      if (delta) deliver(splitter.push(delta));
    },
    delivered: (): boolean => text.length > 0 || reasoning.length > 0,
    partialText: (): string => text,
    finish(): { text: string; reasoning: string } {
      deliver(splitter.end());
      // Only when nothing else was reasoning. It was shown as text while it streamed; what counts is
      // that it is never parsed or sent back.
      const orphan = reasoning === '' ? splitOrphanClose(text) : null;
      if (orphan) return { text: orphan.text, reasoning: reasoning + orphan.reasoning };
      return { text, reasoning };
    },
  };
}

/** `reasoning_content` (DeepSeek, vLLM, llama-server) or `reasoning` (OpenRouter, Ollama). */
export function reasoningOf(part: unknown): string | undefined {
  const fields = part as { reasoning_content?: unknown; reasoning?: unknown } | undefined;
  const value = fields?.reasoning_content ?? fields?.reasoning;
  return typeof value === 'string' ? value : undefined;
}
