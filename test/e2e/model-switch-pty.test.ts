// On a real terminal (tmux): the context window /tokens reports follows /model, /settings names the chat
// as the source, and a reasoning model's thinking shows dimmed before its reply. Every step waits for the
// screen to show what it asserts.
import { describe, expect, it } from 'vitest';
import { textReply } from '../support/fake-openai-server.js';
import { gitRepo } from '../support/temp-repo.js';
import { tmuxTests } from './pty-pane.js';

// Joined lines keep the bare prompt's trailing space, which the prompt checks below look for.
const { open, serve } = tmuxTests({ columns: 120, rows: 50, joined: true });

const count = (screen: string, text: string): number => screen.split(text).length - 1;

describe('/model on a terminal', () => {
  it('changes the context window /tokens reports', async () => {
    const server = await serve();
    const repo = gitRepo({ 'app.py': 'def main():\n    return 1\n' });
    const pane = open(repo, ['--base-url', server.url, '--api-key', 'k', '--model', 'gpt-4.1', '--map-tokens', '0', 'app.py']);
    await pane.waitFor((s) => /^\S*> $/m.test(s), 'the prompt');

    pane.enter('/tokens');
    await pane.waitFor((s) => /room left\s+\d+ of 1047576/.test(s), 'the window of gpt-4.1');

    pane.enter('/model gpt-4o-mini');
    await pane.waitFor((s) => s.includes('The model is now gpt-4o-mini: context window 128,000 tokens'), 'the switch');

    pane.enter('/tokens');
    const screen = await pane.waitFor((s) => /room left\s+\d+ of 128000/.test(s), 'the window of gpt-4o-mini');
    expect(count(screen, 'room left')).toBe(2);

    pane.enter('/settings');
    const settings = await pane.waitFor((s) => /^model\s+gpt-4o-mini\s+\(\/model in this chat\)$/m.test(s), '/settings after the switch');
    expect(settings).toMatch(/^context-window\s+128000\s+\(\/model in this chat\)$/m);
    expect(server.chatRequests()).toHaveLength(0);
  });

  it('streams a reasoning model’s thinking dimmed under a label, then the reply in normal text', async () => {
    const server = await serve({
      replies: { r1: [textReply('The capital is Paris.', { reasoning: 'France, capital: recall-marker-42.', chunkSize: 4, chunkDelayMs: 20 })] },
    });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const pane = open(repo, ['--base-url', server.url, '--api-key', 'k', '--model', 'r1', '--weak-model', 'w', '--map-tokens', '0', '--edit-format', 'ask']);
    await pane.waitFor((s) => /^\S*> $/m.test(s), 'the prompt');
    pane.enter('What is the capital of France?');
    const screen = await pane.waitFor((s) => s.includes('The capital is Paris.') && /Tokens: \d+ sent/.test(s), 'the reply and its status line', true);
    const thinking = screen.indexOf('Thinking…');
    const marker = screen.indexOf('recall-marker-42');
    expect(thinking).toBeGreaterThanOrEqual(0);
    expect(marker).toBeGreaterThan(thinking);
    expect(screen.indexOf('The capital is Paris.')).toBeGreaterThan(marker);
    // The reasoning is inside a dim span (SGR 2); the reply is not.
    const dimStart = screen.lastIndexOf('\u001b[2m', marker);
    expect(dimStart).toBeGreaterThanOrEqual(0);
    expect(screen.slice(dimStart, marker)).not.toMatch(/\u001b\[(0|22)?m/);
    const reply = screen.indexOf('The capital is Paris.');
    expect(screen.slice(screen.lastIndexOf('\u001b[', reply), reply)).not.toContain('\u001b[2m');
    expect(JSON.stringify(server.chatRequests('r1')[0]!.body.messages)).not.toContain('recall-marker-42');
  });
});
