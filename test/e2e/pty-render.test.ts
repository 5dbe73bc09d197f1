// How replies read on a real terminal (tmux, 120 columns): words of a line show before its newline,
// prose wraps at word boundaries, tables are drawn as grids, and plain mode keeps the status line apart.
import { describe, expect, it } from 'vitest';
import { partialReply, startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitRepo } from '../support/temp-repo.js';
import { cliArgs, promptShown, tmuxTests, type Pane } from './pty-pane.js';

const { open: openPane, serve } = tmuxTests();
let server: FakeOpenAIServer | undefined;

async function askOnce(reply: Parameters<typeof startFakeOpenAI>[0], env: Record<string, string> = {}): Promise<Pane> {
  server = await serve(reply);
  const pane = openPane(gitRepo({ 'a.txt': 'a\n' }), [...cliArgs(server.url), '--edit-format', 'ask'], env);
  await pane.waitFor((s) => promptShown(s, 'ask> '), 'the ask> prompt');
  pane.enter('Tell me');
  return pane;
}

const WORDS = Array.from({ length: 40 }, (_, i) => `word${String(i).padStart(2, '0')}`);

describe('replies on a terminal', () => {
  it('shows the words of a long line before its newline arrives', async () => {
    const line = 'The first words of a long streamed line show up while the rest is still on its way to the terminal';
    // Three chunks, then the server stops sending: the newline never comes.
    const pane = await askOnce({ replies: { m: [partialReply(`${line}\n`, 3, 'hang', { chunkSize: 12 })] } });
    const screen = await pane.waitFor((s) => s.includes('The first words of a long st'), 'the first words');
    expect(screen).not.toContain('on its way');
    pane.keys('C-c');
    await pane.waitFor((s) => promptShown(s, 'ask> ') && s.includes('interrupted'), 'the prompt after Ctrl-C');
  });

  it('keeps the unfinished line whole when a queued note is printed under it', async () => {
    const line = 'Streaming words that are still arriving when the user types a line for later';
    const pane = await askOnce({ replies: { m: [partialReply(`${line}\n`, 3, 'hang', { chunkSize: 12 })] } });
    await pane.waitFor((s) => s.includes('Streaming words that are st'), 'the first words');
    pane.enter('a later question');
    const screen = await pane.waitFor((s) => s.includes('queued: a later question'), 'the queued note');
    // The note goes above the live line, which is drawn once, below it.
    const after = screen.split('queued: a later question')[1] ?? '';
    expect(after).toContain('Streaming words that are st');
    expect(screen.split('Streaming words').length - 1).toBe(1);
    pane.keys('C-c');
    const cleared = await pane.waitFor((s) => s.includes('cleared 1 queued line'), 'the queue cleared');
    expect(cleared).toMatch(/^\(cleared 1 queued line/m);
    pane.keys('C-c');
    await pane.waitFor((s) => promptShown(s, 'ask> ') && s.includes('interrupted'), 'the prompt after Ctrl-C');
  });

  it('wraps a 200-character line at word boundaries in a 120-column pane', async () => {
    const line = WORDS.slice(0, 33).join(' ');
    expect(line.length).toBeGreaterThanOrEqual(200);
    const pane = await askOnce({ replies: { m: [textReply(`${line}\nEnd of reply.\n`, { chunkSize: 7 })] } });
    const screen = await pane.waitFor((s) => s.includes('End of reply.') && /Tokens: \d+ sent/.test(s), 'the reply and status line');
    const rows = screen.split('\n').filter((row) => row.includes('word'));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((row) => row.trimEnd().length < 120)).toBe(true);
    // Every row holds whole words, and together they are the line.
    expect(rows.flatMap((row) => row.trim().split(' '))).toEqual(WORDS.slice(0, 33));
  });

  it('renders a table as a grid, without the | --- | delimiter row', async () => {
    const table = ['| file | lines |', '| --- | --- |', '| app.py | 120 |', '| util.py | 8 |', ''].join('\n');
    const pane = await askOnce({ replies: { m: [textReply(`Sizes:\n\n${table}\nDone.\n`, { chunkSize: 5 })] } });
    const screen = await pane.waitFor((s) => s.includes('Done.') && /Tokens: \d+ sent/.test(s), 'the table and status line');
    expect(screen).not.toMatch(/\|\s*-{3,}\s*\|/);
    expect(screen).toContain('│ app.py  │ 120   │');
    expect(screen).toMatch(/├─+┼─+┤/);
  });

  it('keeps the status line on its own line in plain mode when the reply has no final newline', async () => {
    const pane = await askOnce({ replies: { m: [textReply('An answer without a newline')] } }, { NO_COLOR: '1' });
    const screen = await pane.waitFor((s) => /Tokens: \d+ sent/.test(s), 'the status line');
    expect(screen).toMatch(/^An answer without a newline\s*$/m);
    expect(screen).toMatch(/^Tokens: \d+ sent/m);
  });
});
