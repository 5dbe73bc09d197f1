// A fetched web page as chat context: HTML becomes Markdown of its main content (headings, links, code
// blocks as fenced code), text, Markdown and JSON stay as they are, other types are refused. The page is
// untrusted: control characters (terminal escapes) are removed and it is cut to a token cap at a heading.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { withoutControlChars } from './plain-text.js';
import type { TokenCounter } from '../platform/token-counter.js';

export { withoutControlChars } from './plain-text.js';

/** A page in the chat: read-only context named by its URL, never a file. */
export interface WebPage {
  readonly url: string;
  readonly text: string;
}

/** Pages above this many tokens are cut at a heading boundary. */
export const MAX_PAGE_TOKENS = 16_000;

export type PageText = { readonly ok: true; readonly text: string; readonly notes: readonly string[] } | { readonly ok: false; readonly message: string };

export interface PageInput {
  readonly url: string;
  readonly contentType: string;
  readonly body: Buffer;
  /** The body was cut at the download cap. */
  readonly truncated: boolean;
  readonly maxBytes: number;
  readonly tokens: TokenCounter;
  readonly maxTokens?: number;
}

/** The page's text for the model, or one line saying why it cannot be added. */
export function pageText(input: PageInput): PageText {
  const type = input.contentType.split(';')[0]!.trim().toLowerCase();
  const decoded = input.body.toString('utf8');
  const notes: string[] = [];
  if (input.truncated) notes.push(`${input.url} was larger than ${Math.round(input.maxBytes / 1024)} KiB; only the first ${Math.round(input.maxBytes / 1024)} KiB were read.`);
  let text: string;
  if (type === 'text/html' || type === 'application/xhtml+xml') text = htmlToMarkdown(withoutControlChars(decoded), input.url);
  else if (type.startsWith('text/') || type === 'application/json' || type.endsWith('+json') || type === '') text = decoded;
  else return { ok: false, message: `${input.url} is ${type}; only HTML, text, Markdown and JSON pages can be added` };
  const clean = withoutControlChars(text).trim();
  if (clean === '') return { ok: false, message: `${input.url} has no text to add` };
  const cut = cutAtHeading(clean, input.maxTokens ?? MAX_PAGE_TOKENS, input.tokens);
  if (cut.cut) notes.push(`${input.url} is about ${cut.tokens} tokens; it was cut at a heading to stay under ${input.maxTokens ?? MAX_PAGE_TOKENS}.`);
  return { ok: true, text: cut.text, notes };
}

/** The article (Readability's pick, else the body) as Markdown. */
export function htmlToMarkdown(html: string, url: string): string {
  const { document } = parseHTML(html);
  let content: string | null = null;
  try {
    // Readability changes the document it reads: give it its own copy.
    const article = new Readability(parseHTML(html).document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 100, keepClasses: true }).parse();
    content = article?.content ?? null;
    if (article?.title && content) content = `<h1>${escapeHtml(article.title)}</h1>${content}`;
  } catch {
    content = null;
  }
  if (!content) {
    for (const tag of ['script', 'style', 'nav', 'header', 'footer', 'noscript']) for (const node of [...document.querySelectorAll(tag)]) node.remove();
    content = document.body?.innerHTML ?? html;
  }
  const markdown = turndown().turndown(content);
  return `Source: ${url}\n\n${markdown}`;
}

function turndown(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
  service.remove(['script', 'style', 'noscript', 'iframe', 'form']);
  return service;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Cuts `text` to at most `maxTokens`, at the last Markdown heading that fits (else the last blank line),
 * with a note saying so.
 */
export function cutAtHeading(whole: string, maxTokens: number, counter: TokenCounter): { text: string; cut: boolean; tokens: number } {
  // Counting megabytes is slow: a token is hardly ever longer than 16 characters, so no more is counted.
  const text = whole.length > maxTokens * 16 ? whole.slice(0, maxTokens * 16) : whole;
  const tokens = text === whole ? counter.count(text) : Math.round(whole.length / 4);
  if (tokens <= maxTokens) return { text, cut: false, tokens };
  // Characters per token of this text, to find where the cap falls without counting every prefix.
  const limit = Math.floor((text.length * maxTokens) / Math.max(counter.count(text), maxTokens + 1));
  let prefix = text.slice(0, limit);
  while (prefix.length > 0 && counter.count(prefix) > maxTokens) prefix = prefix.slice(0, Math.floor(prefix.length * 0.9));
  const heading = prefix.lastIndexOf('\n#');
  const paragraph = prefix.lastIndexOf('\n\n');
  const space = prefix.lastIndexOf(' ');
  const at = heading > prefix.length / 4 ? heading : paragraph > prefix.length / 4 ? paragraph : space > 0 ? space : prefix.length;
  return { text: `${prefix.slice(0, at).trimEnd()}\n\n[The rest of the page was cut: it is about ${tokens} tokens, over the ${maxTokens}-token cap.]`, cut: true, tokens };
}
