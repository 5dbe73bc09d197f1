// A reply as it streams to the terminal: the interface both renderers share, and the plain one (a pipe,
// NO_COLOR, --no-pretty) with only the control characters that could drive a terminal removed. The
// Markdown renderer (markdown-stream.ts: marked, wrap-ansi, highlight.js) loads only for a colour terminal.

export interface ReplyStream {
  /** More reply text. */
  push(text: string): void;
  /** The reply ended (or was interrupted): render what is left and reset. */
  end(): void;
  /**
   * Something else is about to write: leave the cursor at the start of a fresh line. `brief`: the
   * write is one short note, so the unfinished line is erased and drawn again right after it.
   */
  settle(brief?: boolean): void;
}

export interface StreamOptions {
  /** Columns to wrap prose at. */
  readonly width?: number;
  /** Draw the unfinished line and redraw it in place (needs a terminal that understands cursor moves). */
  readonly live?: boolean;
}

/** Starts the stream of one reply drawn as Markdown (see markdown-stream.ts's terminalMarkdown). */
export type MarkdownReplies = (write: (text: string) => void, options: StreamOptions) => ReplyStream;

/** Drops terminal control characters (escape sequences from a reply could repaint the screen). */
export function sanitize(text: string, keepNewlines: boolean): string {
  const cleaned = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (ch) => (ch === '\r' && keepNewlines ? ch : ''));
  return cleaned.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Plain text, streamed as it comes. */
export function createPlainStream(write: (text: string) => void): ReplyStream {
  let held = '';
  let atLineStart = true;
  const out = (text: string): void => {
    write(text);
    atLineStart = text.endsWith('\n');
  };
  return {
    push(text) {
      const all = held + text;
      // A surrogate pair cut between two chunks must be written whole, or it prints as two U+FFFD.
      const cut = /[\uD800-\uDBFF]$/.test(all) ? all.length - 1 : all.length;
      held = all.slice(cut);
      if (cut > 0) out(sanitize(all.slice(0, cut), true));
    },
    end() {
      if (held) out(sanitize(held, true));
      held = '';
    },
    settle() {
      if (!atLineStart) out('\n');
    },
  };
}
