// /web URL: fetch a page and add it to the chat as read-only context named by its URL (not a file).
// Also the offer for URLs in the user's own message. Every failure is one line; the chat goes on.
import { DEFAULT_FETCH_OPTIONS } from '../../platform/http-fetch.js';
import { splitArgs } from './file-args.js';
import type { CommandContext, SlashCommand } from './types.js';

export const webCommand: SlashCommand = {
  name: 'web',
  summary: 'fetch a web page and add it to the chat as read-only Markdown',
  usage: '/web URL  (http and https; HTML becomes Markdown; /drop URL takes it out)',
  async run(args, ctx) {
    const [url] = splitArgs(args);
    if (!url) {
      ctx.print('Usage: /web URL\n');
      return {};
    }
    // The user typed it: their yes, on record like an answered offer.
    ctx.audit?.record({ kind: 'url-fetch', subject: url, decision: 'yes', by: 'user' });
    const added = await addWebPage(url, ctx);
    return added ? {} : { status: 'error' };
  },
};

/** Fetches `url` and adds the page; prints what happened in one line (and any cut). */
export async function addWebPage(url: string, ctx: Pick<CommandContext, 'session' | 'print' | 'fetchPage' | 'tokens' | 'signal'>): Promise<boolean> {
  if (!ctx.fetchPage) {
    ctx.print('Cannot fetch web pages here.\n');
    return false;
  }
  ctx.print(`Fetching ${url} ...\n`);
  const fetched = await ctx.fetchPage(url, ctx.signal);
  if (!fetched.ok) {
    ctx.print(`Cannot add ${fetched.message}.\n`);
    return false;
  }
  // The HTML libraries load only when a page is added, not with every start of tandem.
  const { MAX_PAGE_TOKENS, pageText } = await import('../../context/web-page.js');
  const page = pageText({
    url: fetched.url,
    contentType: fetched.contentType,
    body: fetched.body,
    truncated: fetched.truncated,
    maxBytes: DEFAULT_FETCH_OPTIONS.maxBytes,
    tokens: ctx.tokens,
    maxTokens: MAX_PAGE_TOKENS,
  });
  if (!page.ok) {
    ctx.print(`Cannot add ${page.message}.\n`);
    return false;
  }
  for (const note of page.notes) ctx.print(`${note}\n`);
  // Named by the URL the user gave (a redirect's target is said, not used as the name).
  ctx.session.context.addWebPage({ url, text: page.text });
  const via = fetched.url !== url ? ` (from ${fetched.url})` : '';
  ctx.print(`Added ${url}${via} to the chat as read-only context (about ${ctx.tokens.count(page.text)} tokens).\n`);
  return true;
}

/** http(s) URLs in a message the user typed, without trailing punctuation, each once. */
export function urlsIn(text: string): string[] {
  const found = [...text.matchAll(/\bhttps?:\/\/[^\s<>"'`]+/g)].map((m) => m[0].replace(/[.,;:!?)\]}]+$/, ''));
  return [...new Set(found)];
}

/**
 * Offers to add the URLs of the user's own message (never a reply's or a file's). Headless without
 * --yes-always nobody can answer, so nothing is fetched and the message goes on unchanged.
 */
export async function offerUrls(text: string, ctx: Pick<CommandContext, 'session' | 'print' | 'fetchPage' | 'tokens' | 'signal' | 'confirm'>): Promise<void> {
  for (const url of urlsIn(text)) {
    if (ctx.session.context.webPages.some((p) => p.url === url)) continue;
    const answer = await ctx.confirm(`Add ${url} to the chat?`, 'fetch-url', url);
    if (answer === 'yes') await addWebPage(url, ctx);
  }
}
