// The model's reasoning on the terminal: under a "Thinking" label, dimmed, streamed as it arrives, and
// closed before the reply (or anything else) is shown. The reply renderer never sees it.
import type { SessionEvent } from '../session/events.js';
import { sanitize } from './reply-stream.js';

export interface ThinkingOutput {
  readonly write: (text: string) => void;
  /** Styles the label and the reasoning; identity in plain mode. */
  readonly dim: (text: string) => string;
}

export interface ThinkingDisplay {
  /** Shows reasoning events (true: the event was one); any other event closes an open block first. */
  handle(event: SessionEvent): boolean;
}

export function createThinkingDisplay(output: ThinkingOutput): ThinkingDisplay {
  let open = false;
  let endsWithNewline = true;

  const show = (text: string): void => {
    const clean = sanitize(text, true);
    if (clean === '') return;
    if (!open) {
      output.write(output.dim('Thinking…\n'));
      open = true;
    }
    output.write(output.dim(clean));
    endsWithNewline = clean.endsWith('\n');
  };
  const close = (): void => {
    if (!open) return;
    output.write(endsWithNewline ? '\n' : '\n\n');
    open = false;
    endsWithNewline = true;
  };

  return {
    handle(event) {
      if (event.type === 'reasoning_delta') {
        show(event.text);
        return true;
      }
      // The whole reasoning, after the reply: it already arrived in deltas (streamed or not), or it was
      // shown as reply text because nothing marked it as reasoning until its closing tag.
      if (event.type === 'reasoning') return true;
      close();
      return false;
    },
  };
}
