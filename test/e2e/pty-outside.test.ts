// On a real terminal (tmux): the offer for a URL in the user's message (yes fetches the page, no sends the
// message unchanged), and /copy without a display going through the terminal's clipboard escape (OSC 52),
// which tmux relays into its paste buffer.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { textReply } from '../support/fake-openai-server.js';
import { gitRepo } from '../support/temp-repo.js';
import { cliArgs, promptShown, TMUX, tmuxTests } from './pty-pane.js';

const { open: openPane, serve } = tmuxTests({ joined: true });

let web: Server | undefined;
afterEach(async () => {
  const open = web;
  open?.closeAllConnections();
  if (open) await new Promise((resolve) => open.close(resolve));
  web = undefined;
});

async function startWeb(): Promise<string> {
  web = createServer((req, res) => {
    if (req.url === '/guide') return void res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Guide\n\nThe frobnicator takes a list.\n');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => web!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
}

describe('outside context on a terminal', () => {
  it('fetches a URL of the message on yes, and sends the message unchanged on no', async () => {
    const server = await serve({ fallback: textReply('Noted.') });
    const site = await startWeb();
    const pane = openPane(gitRepo({ 'a.txt': 'a\n' }), [...cliArgs(server.url), '--edit-format', 'ask']);
    await pane.waitFor((s) => promptShown(s, 'ask> '), 'the prompt');
    pane.enter(`read ${site}/guide please`);
    await pane.waitFor((s) => s.includes(`Add ${site}/guide to the chat?`), 'the URL offer');
    pane.keys('y');
    await pane.waitFor((s) => s.includes('Noted.') && promptShown(s, 'ask> '), 'the first reply');
    expect(JSON.stringify(server.chatRequests()[0]!.body.messages)).toContain('The frobnicator takes a list.');

    pane.enter('/drop');
    await pane.waitFor((s) => s.includes('Dropped 1 file(s)') && promptShown(s, 'ask> '), '/drop');
    pane.enter(`again ${site}/guide`);
    await pane.waitFor((s) => (s.match(/to the chat\?/g) ?? []).length === 2, 'the second offer');
    pane.keys('n');
    await pane.waitFor(() => server.chatRequests().length === 2, 'the second request');
    const messages = server.chatRequests()[1]!.body.messages as Array<{ content: string }>;
    expect(messages.at(-1)!.content).toContain(`again ${site}/guide`);
    expect(JSON.stringify(messages)).not.toContain('The frobnicator takes a list.');
  });

  it('copies through OSC 52 when there is no display, and tmux receives it', async () => {
    const server = await serve({ fallback: textReply('Copy me through the terminal.') });
    const pane = openPane(gitRepo({ 'a.txt': 'a\n' }), [...cliArgs(server.url), '--edit-format', 'ask']);
    execFileSync(TMUX, ['-L', pane.socket, 'set-option', '-g', 'set-clipboard', 'on']);
    await pane.waitFor((s) => promptShown(s, 'ask> '), 'the prompt');
    pane.enter('say something');
    await pane.waitFor((s) => s.includes('Copy me through the terminal.') && promptShown(s, 'ask> '), 'the reply');
    pane.enter('/copy');
    await pane.waitFor((s) => s.includes('through the terminal (OSC 52)'), 'the OSC 52 copy');
    expect(execFileSync(TMUX, ['-L', pane.socket, 'show-buffer'], { encoding: 'utf8' })).toBe('Copy me through the terminal.');
  });
});
