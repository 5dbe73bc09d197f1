// Renders a streamed Markdown reply for the terminal one complete line at a time: headings, lists,
// emphasis, inline code and highlighted code fences; SEARCH/REPLACE blocks pass through untouched.
import { highlightLine, START_STATE, type CodeStyle, type HighlightState } from './highlight.js';

export interface MarkdownStyle {
  readonly bold: (s: string) => string;
  readonly italic: (s: string) => string;
  readonly heading: (s: string) => string;
  readonly inlineCode: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly link: (s: string) => string;
  readonly code: CodeStyle;
  /** Whether the terminal's encoding has box-drawing characters and bullets. */
  readonly unicode: boolean;
}

export interface MarkdownStream {
  /** More reply text; whole lines are rendered at once, a partial line waits for its newline. */
  push(text: string): void;
  /** The reply ended (or was interrupted): render what is left and reset. */
  end(): void;
}

interface Fence {
  readonly marker: string;
  readonly language: string;
  readonly highlight: HighlightState;
}

export interface RenderState {
  readonly fence: Fence | null;
  /** Inside a SEARCH/REPLACE block, which is shown as typed. */
  readonly editBlock: boolean;
}

export const INITIAL_RENDER_STATE: RenderState = { fence: null, editBlock: false };

/** `style` null: plain text, streamed as it comes with only unsafe control characters removed. */
export function createMarkdownStream(write: (text: string) => void, style: MarkdownStyle | null): MarkdownStream {
  return style ? createRenderedStream(write, style) : createPlainStream(write);
}

function createPlainStream(write: (text: string) => void): MarkdownStream {
  let held = '';
  return {
    push(text) {
      const all = held + text;
      // A surrogate pair cut between two chunks must be written whole, or it prints as two U+FFFD.
      const cut = /[\uD800-\uDBFF]$/.test(all) ? all.length - 1 : all.length;
      held = all.slice(cut);
      if (cut > 0) write(sanitize(all.slice(0, cut), true));
    },
    end() {
      if (held) write(sanitize(held, true));
      held = '';
    },
  };
}

function createRenderedStream(write: (text: string) => void, style: MarkdownStyle): MarkdownStream {
  let pending = '';
  let state = INITIAL_RENDER_STATE;
  const emitLine = (line: string): void => {
    const rendered = renderMarkdownLine(line, state, style);
    state = rendered.state;
    write(`${rendered.text}\n`);
  };
  return {
    push(text) {
      pending += text;
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        emitLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    },
    end() {
      if (pending !== '') emitLine(pending);
      pending = '';
      state = INITIAL_RENDER_STATE;
    },
  };
}

/** Drops terminal control characters (escape sequences from a reply could repaint the screen). */
export function sanitize(text: string, keepNewlines: boolean): string {
  const cleaned = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (ch) => (ch === '\r' && keepNewlines ? ch : ''));
  return cleaned.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

const SEARCH_LINE = /^<{5,9} SEARCH\b/;
const REPLACE_LINE = /^>{5,9} REPLACE\s*$/;
const FENCE_OPEN = /^\s*(`{3,}|~{3,})\s*([^`]*)$/;

/** One line of Markdown (without its newline) in the given state: the terminal text and the next state. */
export function renderMarkdownLine(rawLine: string, state: RenderState, style: MarkdownStyle): { text: string; state: RenderState } {
  const line = sanitize(rawLine, false);
  if (state.editBlock) return { text: line, state: { ...state, editBlock: !REPLACE_LINE.test(line) } };
  if (SEARCH_LINE.test(line)) return { text: line, state: { ...state, editBlock: true } };
  if (state.fence) return renderInFence(line, state.fence, style);
  const open = FENCE_OPEN.exec(line);
  if (open) {
    const fence: Fence = { marker: open[1] ?? '```', language: (open[2] ?? '').trim(), highlight: START_STATE };
    return { text: style.dim(line), state: { fence, editBlock: false } };
  }
  return { text: renderBlockLine(line, style), state };
}

function renderInFence(line: string, fence: Fence, style: MarkdownStyle): { text: string; state: RenderState } {
  const trimmed = line.trim();
  const closes = trimmed.length >= fence.marker.length && trimmed === (fence.marker[0] ?? '`').repeat(trimmed.length);
  if (closes) return { text: style.dim(line), state: INITIAL_RENDER_STATE };
  const highlighted = highlightLine(line, fence.language, style.code, fence.highlight);
  return { text: highlighted.text, state: { fence: { ...fence, highlight: highlighted.state }, editBlock: false } };
}

function renderBlockLine(line: string, style: MarkdownStyle): string {
  const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
  if (heading) return style.heading(renderInline(heading[2] ?? '', style));
  if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) return style.dim((style.unicode ? '\u2500' : '-').repeat(40));
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet) return `${bullet[1] ?? ''}${style.unicode ? '\u2022' : '-'} ${renderInline(bullet[2] ?? '', style)}`;
  const numbered = /^(\s*)(\d{1,9}[.)])\s+(.*)$/.exec(line);
  if (numbered) return `${numbered[1] ?? ''}${numbered[2] ?? ''} ${renderInline(numbered[3] ?? '', style)}`;
  const quote = /^\s{0,3}>\s?(.*)$/.exec(line);
  if (quote) return `${style.dim(style.unicode ? '\u2502' : '|')} ${style.italic(renderInline(quote[1] ?? '', style))}`;
  return renderInline(line, style);
}

/** Inline code first (its content is literal), then links, bold and italic in the text around it. */
export function renderInline(text: string, style: MarkdownStyle): string {
  const parts = text.split(/(`+[^`]+?`+)/);
  return parts
    .map((part, index) => {
      if (index % 2 === 1) return style.inlineCode(part.replace(/^`+\s?|\s?`+$/g, ''));
      return renderEmphasis(part, style);
    })
    .join('');
}

function renderEmphasis(text: string, style: MarkdownStyle): string {
  return text
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, url: string) => `${style.link(label)} ${style.dim(`(${url})`)}`)
    .replace(/\*\*(?!\s)(.+?)(?<!\s)\*\*|__(?!\s)(.+?)(?<!\s)__/g, (_m, a?: string, b?: string) => style.bold(a ?? b ?? ''))
    .replace(/(^|[^*\w])\*(?![\s*])([^*]+?)(?<!\s)\*(?!\*)/g, (_m, before: string, inner: string) => `${before}${style.italic(inner)}`)
    .replace(/(^|[^_\w])_(?![\s_])([^_]+?)(?<!\s)_(?![_\w])/g, (_m, before: string, inner: string) => `${before}${style.italic(inner)}`);
}
