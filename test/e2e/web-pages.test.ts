// /web against a local HTTP server the test starts: the Markdown the model receives holds the article and
// its fenced code but not the navigation; a 404, a PDF, a redirect chain of 6, a redirect to file:, a page
// over the download cap and a page that never answers are one line each, and the chat goes on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { gitRepo } from '../support/temp-repo.js';

const ARTICLE = `<!doctype html><html><head><title>Widget API</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/pricing">NAVIGATION-PRICING-LINK</a></li></ul></nav>
<header><div class="menu">SITE-MENU-BANNER</div></header>
<main><article><h1>Widget API</h1>
<p>The widget endpoint returns a list of widgets. Each widget has an id, a name and a colour. Calls are rate limited to ten per second per key, and the answer is paged.</p>
<h2>Example</h2>
<p>Call it from Python like this, passing your key in the header of every request you make to the service.</p>
<pre><code class="language-python">import widgets
print(widgets.list(colour="teal"))
</code></pre>
<p>The \x1b[31mcolour\x1b[0m filter is optional; without it every widget comes back, twenty to a page.</p>
</article></main>
<footer>FOOTER-COPYRIGHT</footer></body></html>`;

let server: FakeOpenAIServer | undefined;
let web: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  const open = web;
  open?.closeAllConnections();
  if (open) await new Promise((resolve) => open.close(resolve));
  web = undefined;
});

/** Paths the local site was asked for. */
const hits: string[] = [];

async function startWeb(): Promise<string> {
  hits.length = 0;
  web = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    const hop = /^\/r([1-6])$/.exec(path);
    if (path === '/article') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    if (path === '/r7') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('the end of the chain');
    if (path === '/notes.md') return void res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Notes\n\nplain markdown kept\n');
    if (path === '/missing') return void res.writeHead(404, 'Not Found').end('no');
    if (path === '/doc.pdf') return void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
    if (hop) return void res.writeHead(302, { location: `/r${Number(hop[1]) + 1}` }).end();
    if (path === '/to-file') return void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (path === '/big') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`# Big\n\n${'lorem ipsum dolor '.repeat(120_000)}`);
    if (path === '/hang') return; // accepts and never answers
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => web!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
}

const args = (url: string, extra: string[] = []): string[] => ['--base-url', url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--json', ...extra];
const infos = (events: Array<Record<string, any>>): string[] => events.filter((e) => e.type === 'info').map((e) => String(e.message));

describe('/web', () => {
  it('adds the article as Markdown with fenced code and without the navigation; each failure is one line', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const site = await startWeb();
    const repo = gitRepo({ 'a.txt': 'alpha\n' });
    const stdin = [
      `/web ${site}/article`,
      `/web ${site}/missing`,
      `/web ${site}/doc.pdf`,
      `/web ${site}/r1`,
      `/web ${site}/r2`,
      `/web ${site}/to-file`,
      '/web file:///etc/passwd',
      `/web ${site}/big`,
      '/tokens',
      '/ask what does the page say?',
    ].join('\n');
    const run = await runCli(args(server.url), { cwd: repo, stdin: `${stdin}\n` });
    expect(run.stderr).not.toMatch(/internal error|at .*\.js/);
    const lines = infos(run.events());
    expect(lines).toContain(`Cannot add ${site}/missing: HTTP 404 Not Found.`);
    expect(lines).toContain(`Cannot add ${site}/doc.pdf is application/pdf; only HTML, text, Markdown and JSON pages can be added.`);
    // Six redirects are one too many; five are followed.
    expect(lines).toContain(`Cannot add ${site}/r1: more than 5 redirects; not followed.`);
    expect(lines.some((l) => l.startsWith(`Added ${site}/r2 (from ${site}/r7) to the chat`))).toBe(true);
    expect(lines).toContain(`Cannot add ${site}/to-file redirects to file: URLs are not fetched (only http and https): file:///etc/passwd.`);
    expect(lines).toContain('Cannot add file: URLs are not fetched (only http and https): file:///etc/passwd.');
    expect(lines.some((l) => l.startsWith(`${site}/big was larger than 2048 KiB`))).toBe(true);
    expect(lines.some((l) => l.startsWith(`${site}/big is about`) && l.includes('cut at a heading'))).toBe(true);
    // /tokens lists each page by its URL.
    const tokens = lines.find((l) => l.includes('room left')) ?? '';
    expect(tokens).toContain(`${site}/article`);
    expect(tokens).toContain(`${site}/big`);

    // The chat went on: the last request reached the model with the page in it.
    const requests = server.chatRequests('m');
    expect(requests).toHaveLength(1);
    const sent = JSON.stringify(requests[0]!.body.messages);
    const page = (requests[0]!.body.messages as Array<{ content: string }>).map((m) => m.content).find((c) => typeof c === 'string' && c.includes('Widget API')) ?? '';
    expect(page).toContain('The widget endpoint returns a list of widgets.');
    expect(page).toMatch(/```python\nimport widgets\nprint\(widgets\.list\(colour="teal"\)\)\n```/);
    expect(page).toContain('## Example');
    expect(page).not.toContain('NAVIGATION-PRICING-LINK');
    expect(page).not.toContain('FOOTER-COPYRIGHT');
    expect(page).not.toContain('\x1b');
    expect(sent).toContain('[The rest of the page was cut');
    expect(sent).toContain('the end of the chain');

    // A page that never answers ends at --web-timeout (the short one only here, where nothing else is fetched).
    const hang = await runCli(args(server.url, ['--web-timeout', '1']), { cwd: repo, stdin: `/web ${site}/hang\n/ask still there?\n` });
    expect(infos(hang.events())).toContain(`Cannot add ${site}/hang: no complete answer within 1 s.`);
    expect(server.chatRequests('m')).toHaveLength(2);
    expect(sent).not.toContain('/etc/passwd:');
  });

  it('keeps Markdown as it is and drops a page by its URL', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const site = await startWeb();
    const repo = gitRepo({ 'a.txt': 'alpha\n' });
    const stdin = [`/web ${site}/notes.md`, '/ls', '/ask first', `/drop ${site}/notes.md`, '/ask second', '/help'].join('\n');
    const run = await runCli(args(server.url), { cwd: repo, stdin: `${stdin}\n` });
    expect(run.code, run.stderr).toBe(0);
    expect(infos(run.events())).toContain(`Dropped ${site}/notes.md.`);
    expect(infos(run.events())).toContain(`Web pages:\n  ${site}/notes.md`);
    const help = infos(run.events()).find((l) => l.includes('/copy-context')) ?? '';
    for (const name of ['web', 'paste', 'copy', 'copy-context', 'voice']) expect(help).toMatch(new RegExp(`^  /${name}\\s`, 'm'));
    const [first, second] = server.chatRequests('m');
    expect(JSON.stringify(first!.body.messages)).toContain('# Notes\\n\\nplain markdown kept');
    expect(JSON.stringify(second!.body.messages)).not.toContain('plain markdown kept');

    // A resumed chat has its pages back (from the session log: nothing is fetched again).
    const again = await runCli(args(server.url), { cwd: repo, stdin: `/web ${site}/notes.md\n` });
    expect(again.code, again.stderr).toBe(0);
    await new Promise((resolve) => web!.close(resolve));
    const resumed = await runCli(args(server.url, ['--resume']), { cwd: repo, stdin: '/ask third\n' });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.stringify(server.chatRequests('m').at(-1)!.body.messages)).toContain('plain markdown kept');
  });

  it('never fetches a URL of a message headless without --yes-always, and sends the message unchanged', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const site = await startWeb();
    const repo = gitRepo({ 'a.txt': 'alpha\n' });
    const message = `/ask summarize ${site}/article please`;
    const run = await runCli(args(server.url), { cwd: repo, stdin: `${message}\n` });
    expect(run.code, run.stderr).toBe(0);
    const asked = run.events().filter((e) => e.type === 'question');
    expect(asked.map((e) => [e.text, e.answer])).toEqual([[`Add ${site}/article to the chat?`, false]]);
    const sent = server.chatRequests('m')[0]!.body.messages as Array<{ content: string }>;
    expect(sent.at(-1)!.content).toContain(`summarize ${site}/article please`);
    expect(JSON.stringify(sent)).not.toContain('widget endpoint');

    // With --yes-always the offer is taken; with --no-detect-urls there is none. A URL in the model's
    // reply is never fetched, not even with --yes-always.
    server.enqueue([textReply(`See ${site}/notes.md for more.`)]);
    const yes = await runCli(args(server.url, ['--yes-always']), { cwd: repo, stdin: `${message}\n/ask and then?\n` });
    expect(hits).toEqual(['/article']);
    expect(JSON.stringify(server.chatRequests('m')[1]!.body.messages)).toContain('widget endpoint');
    expect(yes.code, yes.stderr).toBe(0);
    const off = await runCli(args(server.url, ['--yes-always', '--no-detect-urls']), { cwd: repo, stdin: `${message}\n` });
    expect(off.events().filter((e) => e.type === 'question')).toEqual([]);
    expect(JSON.stringify(server.chatRequests('m')[3]!.body.messages)).not.toContain('widget endpoint');
  });
});
