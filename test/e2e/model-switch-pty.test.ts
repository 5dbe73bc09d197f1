// /model on a real terminal (tmux): the context window /tokens reports follows the switch, and
// /settings names the chat as the source. Every step waits for the screen to show what it asserts.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitRepo } from '../support/temp-repo.js';
import { openTmuxPane, TMUX, tmuxAvailable, type TmuxPane } from '../support/tmux-pane.js';

let pane: TmuxPane | undefined;
let server: FakeOpenAIServer | undefined;

beforeAll(() => {
  if (!tmuxAvailable()) throw new Error(`this test drives the CLI through tmux, which is missing at ${TMUX}: install tmux`);
});

afterEach(async () => {
  pane?.close();
  pane = undefined;
  await server?.close();
  server = undefined;
});

const count = (screen: string, text: string): number => screen.split(text).length - 1;

describe('/model on a terminal', () => {
  it('changes the context window /tokens reports', async () => {
    server = await startFakeOpenAI();
    const repo = gitRepo({ 'app.py': 'def main():\n    return 1\n' });
    pane = openTmuxPane(repo, ['--base-url', server.url, '--api-key', 'k', '--model', 'gpt-4.1', '--map-tokens', '0', 'app.py']);
    await pane.waitFor((s) => /^\S*> $/m.test(s), 'the prompt');

    pane.type('/tokens');
    pane.keys('Enter');
    await pane.waitFor((s) => /room left\s+\d+ of 1047576/.test(s), 'the window of gpt-4.1');

    pane.type('/model gpt-4o-mini');
    pane.keys('Enter');
    await pane.waitFor((s) => s.includes('The model is now gpt-4o-mini: context window 128,000 tokens'), 'the switch');

    pane.type('/tokens');
    pane.keys('Enter');
    const screen = await pane.waitFor((s) => /room left\s+\d+ of 128000/.test(s), 'the window of gpt-4o-mini');
    expect(count(screen, 'room left')).toBe(2);

    pane.type('/settings');
    pane.keys('Enter');
    const settings = await pane.waitFor((s) => /^model\s+gpt-4o-mini\s+\(\/model in this chat\)$/m.test(s), '/settings after the switch');
    expect(settings).toMatch(/^context-window\s+128000\s+\(\/model in this chat\)$/m);
    expect(server.chatRequests()).toHaveLength(0);
  });
});
