// Pure rendering of finished Markdown pieces for the terminal: one prose line (heading, list item,
// quote, rule, paragraph) wrapped to the width with a hanging indent, inline spans from marked's lexer,
// and whole tables drawn as a grid.
import { Lexer, lexer, type Token, type Tokens } from 'marked';
import wrapAnsi from 'wrap-ansi';
import type { Paint } from './colors.js';
import type { CodeStyle } from './highlight.js';

export interface MarkdownStyle {
  readonly bold: Paint;
  readonly italic: Paint;
  readonly heading: Paint;
  readonly inlineCode: Paint;
  readonly dim: Paint;
  readonly link: Paint;
  readonly code: CodeStyle;
  /** Whether the terminal's encoding has box-drawing characters and bullets. */
  readonly unicode: boolean;
}

/** Inline Markdown (emphasis, code spans, links) as terminal text. */
export function renderInline(text: string, style: MarkdownStyle): string {
  let tokens: Token[];
  try {
    tokens = Lexer.lexInline(text);
  } catch {
    return text;
  }
  return renderTokens(tokens, style);
}

function renderTokens(tokens: readonly Token[], style: MarkdownStyle): string {
  return tokens.map((token) => renderToken(token, style)).join('');
}

function renderToken(token: Token, style: MarkdownStyle): string {
  const inner = (): string => ('tokens' in token && token.tokens ? renderTokens(token.tokens, style) : token.raw);
  switch (token.type) {
    case 'strong':
      return style.bold(inner());
    case 'em':
      return style.italic(inner());
    case 'codespan':
      return style.inlineCode((token as Tokens.Codespan).text);
    case 'link': {
      const link = token as Tokens.Link;
      const label = inner();
      return link.href === link.text ? style.link(label) : `${style.link(label)} ${style.dim(`(${link.href})`)}`;
    }
    case 'del':
      return `~${inner()}~`;
    case 'escape':
      return (token as Tokens.Escape).text;
    case 'br':
      return ' ';
    default:
      return token.raw;
  }
}

const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const NUMBERED = /^(\s*)(\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

/** One line of prose, wrapped to `width` columns; list items and quotes continue under their text. */
export function renderProseLine(line: string, style: MarkdownStyle, width: number): string {
  const heading = HEADING.exec(line);
  if (heading) return wrap(style.heading(renderInline(heading[2] ?? '', style)), '', '', width);
  if (RULE.test(line)) return style.dim((style.unicode ? '\u2500' : '-').repeat(Math.min(40, width)));
  const bullet = BULLET.exec(line);
  if (bullet) {
    const indent = bullet[1] ?? '';
    const marker = `${indent}${style.unicode ? '\u2022' : '-'} `;
    return wrap(renderInline(bullet[2] ?? '', style), marker, ' '.repeat(marker.length), width);
  }
  const numbered = NUMBERED.exec(line);
  if (numbered) {
    const marker = `${numbered[1] ?? ''}${numbered[2] ?? ''} `;
    return wrap(renderInline(numbered[3] ?? '', style), marker, ' '.repeat(marker.length), width);
  }
  const quote = QUOTE.exec(line);
  if (quote) {
    const bar = `${style.dim(style.unicode ? '\u2502' : '|')} `;
    return wrap(style.italic(renderInline(quote[1] ?? '', style)), bar, bar, width, 2);
  }
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  return wrap(renderInline(line.slice(indent.length), style), indent, indent, width);
}

/** Wraps at word boundaries (a word longer than the line is cut), the first row after `first`. */
function wrap(text: string, first: string, rest: string, width: number, prefixWidth = first.length): string {
  const room = Math.max(10, width - prefixWidth);
  const rows = wrapAnsi(text, room, { hard: true, trim: true }).split('\n');
  return rows.map((row, i) => `${i === 0 ? first : rest}${row}`).join('\n');
}

/** Whether a line can belong to a pipe table. */
export function isTableLine(line: string): boolean {
  return /^\s*\|.*\|\s*$/.test(line);
}

/** A pipe table as a grid; null when marked does not read the lines as a table. */
export function renderTable(lines: readonly string[], style: MarkdownStyle): string | null {
  let table: Tokens.Table | undefined;
  try {
    table = lexer(lines.join('\n')).find((t): t is Tokens.Table => t.type === 'table');
  } catch {
    return null;
  }
  if (!table) return null;
  const cell = (c: Tokens.TableCell): string => renderTokens(c.tokens, style);
  const header = table.header.map((c) => style.bold(cell(c)));
  const rows = table.rows.map((row) => row.map(cell));
  const widths = header.map((h, i) => Math.max(visibleLength(h), ...rows.map((r) => visibleLength(r[i] ?? ''))));
  const bar = style.unicode ? '\u2502' : '|';
  const line = (cells: readonly string[]): string =>
    `${bar} ${widths.map((w, i) => pad(cells[i] ?? '', w, table.align[i] ?? null)).join(` ${bar} `)} ${bar}`;
  const across = style.unicode ? '\u2500' : '-';
  const joint = style.unicode ? '\u253c' : '+';
  const edge = style.unicode ? ['\u251c', '\u2524'] : ['+', '+'];
  const separator = style.dim(`${edge[0]}${widths.map((w) => across.repeat(w + 2)).join(joint)}${edge[1]}`);
  return [line(header), separator, ...rows.map(line)].join('\n');
}

function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return Array.from(text.replace(/\u001b\[[0-9;]*m/g, '')).length;
}

function pad(text: string, width: number, align: 'left' | 'right' | 'center' | null): string {
  const space = width - visibleLength(text);
  if (align === 'right') return ' '.repeat(space) + text;
  if (align === 'center') return ' '.repeat(Math.floor(space / 2)) + text + ' '.repeat(Math.ceil(space / 2));
  return text + ' '.repeat(space);
}
