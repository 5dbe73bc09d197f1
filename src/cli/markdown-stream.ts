// Renders a streamed Markdown reply for the terminal. Finished lines go through markdown-render; the
// line still being written is drawn as it grows and redrawn in place (live), so a long paragraph shows
// its words before its newline. Fence lines are hidden and their code highlighted; tables wait for
// their last row; SEARCH/REPLACE blocks pass through untouched. Loaded only by a run that draws replies
// on a colour terminal (render-terminal.ts imports it then).
import { ANSI, sgr } from './colors.js';
import { ANSI_CODE_STYLE, highlightLastLine } from './highlight.js';
import { isTableLine, renderProseLine, renderTable, type MarkdownStyle } from './markdown-render.js';
import { sanitize, type MarkdownReplies, type ReplyStream, type StreamOptions } from './reply-stream.js';

export { renderInline, type MarkdownStyle } from './markdown-render.js';

type Block =
  | { readonly kind: 'text' }
  | { readonly kind: 'edit'; readonly inside: Block }
  | { readonly kind: 'fence'; readonly marker: string; readonly language: string; readonly lines: string[] }
  | { readonly kind: 'table'; readonly lines: string[] };

const TEXT: Block = { kind: 'text' };
const SEARCH_LINE = /^<{5,9} SEARCH\b/;
const REPLACE_LINE = /^>{5,9} REPLACE\s*$/;
const FENCE_OPEN = /^\s*(`{3,}|~{3,})\s*([^`]*)$/;
/** An unfinished line that may turn into a fence, table or edit block is not drawn live. */
const NOT_LIVE = /^\s*(`|~~|\||<{3}|={3}|>{3})/;

/** Replies drawn as Markdown in the terminal's colours; `unicode`: bullets and box drawing. */
export function terminalMarkdown(unicode: boolean): MarkdownReplies {
  const style = ansiMarkdownStyle(unicode);
  return (write, options) => createMarkdownStream(write, style, options);
}

function ansiMarkdownStyle(unicode: boolean): MarkdownStyle {
  return {
    bold: ANSI.bold,
    italic: sgr(3, 23),
    heading: (s) => ANSI.bold(ANSI.cyan(s)),
    inlineCode: ANSI.yellow,
    dim: ANSI.dim,
    link: sgr(4, 24),
    code: ANSI_CODE_STYLE,
    unicode,
  };
}

export function createMarkdownStream(write: (text: string) => void, style: MarkdownStyle, options: StreamOptions = {}): ReplyStream {
  const width = Math.max(20, (options.width ?? 80) - 1);
  let pending = '';
  let block: Block = TEXT;
  /** What is on screen of the unfinished line, and how many rows it takes. */
  let drawn = '';

  const erase = (): void => {
    if (drawn === '') return;
    const rows = drawn.split('\n').length;
    write(`\r${rows > 1 ? `\u001b[${rows - 1}A` : ''}\u001b[J`);
    drawn = '';
  };

  const drawLive = (): void => {
    if (!options.live || block.kind !== 'text' || pending === '' || NOT_LIVE.test(pending)) return;
    const rendered = renderProseLine(sanitize(pending, false), style, width);
    if (rendered === drawn) return;
    if (drawn !== '' && rendered.startsWith(drawn)) {
      write(rendered.slice(drawn.length));
    } else {
      erase();
      write(rendered);
    }
    drawn = rendered;
  };

  const flushTable = (): void => {
    if (block.kind !== 'table') return;
    const lines = block.lines;
    block = TEXT;
    const table = renderTable(lines, style);
    if (table !== null) write(`${table}\n`);
    else for (const line of lines) write(`${renderProseLine(line, style, width)}\n`);
  };

  const emitLine = (raw: string): void => {
    const line = sanitize(raw, false);
    if (block.kind === 'edit') {
      write(`${line}\n`);
      if (REPLACE_LINE.test(line)) block = block.inside;
      return;
    }
    if (SEARCH_LINE.test(line)) {
      flushTable();
      block = { kind: 'edit', inside: block };
      write(`${line}\n`);
      return;
    }
    if (block.kind === 'fence') return fenceLine(line, block);
    if (block.kind === 'table') {
      if (isTableLine(line)) {
        block.lines.push(line);
        return;
      }
      flushTable();
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      // The fence line itself is hidden: the highlighting shows where the code is.
      block = { kind: 'fence', marker: open[1] ?? '```', language: (open[2] ?? '').trim(), lines: [] };
      return;
    }
    if (isTableLine(line)) {
      block = { kind: 'table', lines: [line] };
      return;
    }
    write(line.trim() === '' ? '\n' : `${renderProseLine(line, style, width)}\n`);
  };

  const fenceLine = (line: string, fence: Extract<Block, { kind: 'fence' }>): void => {
    const trimmed = line.trim();
    const closes = trimmed.length >= fence.marker.length && trimmed === (fence.marker[0] ?? '`').repeat(trimmed.length);
    if (closes) {
      block = TEXT;
      return;
    }
    fence.lines.push(line);
    write(`${highlightLastLine(fence.lines, fence.language, style.code)}\n`);
  };

  return {
    push(text) {
      pending += text;
      let newline = pending.indexOf('\n');
      if (newline >= 0) erase();
      while (newline >= 0) {
        emitLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
      drawLive();
    },
    end() {
      erase();
      if (pending !== '') emitLine(pending);
      flushTable();
      pending = '';
      block = TEXT;
    },
    settle(brief = false) {
      if (drawn === '') return;
      if (brief) {
        erase();
        // The note is written synchronously after this returns; the line comes back below it.
        queueMicrotask(drawLive);
        return;
      }
      // The unfinished line stays on screen; it is drawn again in full below what comes next.
      write('\n');
      drawn = '';
    },
  };
}
