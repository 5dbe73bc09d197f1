// The real CLI on a real pseudo-terminal (tmux): Tab completion, Ctrl-C during a streamed reply, the
// ask> prompt, and coloured Markdown that disappears under NO_COLOR.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitRepo } from '../support/temp-repo.js';
import { cliArgs, promptShown, tmuxTests } from './pty-pane.js';

const { open: openPane, serve } = tmuxTests();
let server: FakeOpenAIServer | undefined;

const prompted = (screen: string): boolean => promptShown(screen);
const askPrompted = (screen: string): boolean => promptShown(screen, 'ask> ');

describe('the CLI on a terminal', () => {
  it('completes /ad to /add and a partial path to a repository file with Tab', async () => {
    server = await serve();
    const repo = gitRepo({ 'src/widgets/gearbox.py': 'x = 1\n', 'README.md': '# r\n' });
    const pane = openPane(repo, cliArgs(server.url));
    await pane.waitFor(prompted, 'the prompt');
    pane.type('/ad');
    pane.keys('Tab');
    await pane.waitFor((s) => /^> \/add\s*$/m.test(s), '/ad completed to "/add "');
    pane.type('src/wi');
    pane.keys('Tab');
    await pane.waitFor((s) => s.includes('> /add src/widgets/'), 'the folder completed');
    pane.keys('Tab');
    await pane.waitFor((s) => s.includes('> /add src/widgets/gearbox.py'), 'the file completed');
    pane.keys('Enter');
    await pane.waitFor((s) => s.includes('Added src/widgets/gearbox.py to the chat.'), 'the file added');
    pane.type('/exit');
    pane.keys('Enter');
    expect(readFileSync(join(repo, '.tandem', 'input.history'), 'utf8')).toContain('/add src/widgets/gearbox.py');
  });

  it('returns to the prompt on Ctrl-C during a streamed reply, with the chat intact', async () => {
    const slow = 'This reply streams very slowly.\n'.repeat(40);
    server = await serve({
      replies: { m: [textReply('The capital is Paris.'), textReply(slow, { chunkSize: 5, chunkDelayMs: 40 }), textReply('Noted.')] },
    });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const pane = openPane(repo, [...cliArgs(server.url), '--edit-format', 'ask']);
    await pane.waitFor(askPrompted, 'the ask> prompt');
    pane.type('What is the capital of France?');
    pane.keys('Enter');
    await pane.waitFor((s) => s.includes('The capital is Paris.'), 'the first reply');
    await pane.waitFor(askPrompted, 'the prompt after the first reply');
    pane.type('Tell me a long story');
    pane.keys('Enter');
    await pane.waitFor((s) => s.includes('streams very slowly'), 'the slow reply to start');
    pane.keys('C-c');
    await pane.waitFor((s) => s.includes('(reply interrupted)') && askPrompted(s.split('(reply interrupted)')[1] ?? ''), 'the prompt after Ctrl-C');
    pane.type('And now?');
    pane.keys('Enter');
    await pane.waitFor((s) => s.includes('Noted.'), 'the third reply');
    const third = JSON.stringify(server.chatRequests('m')[2]!.body.messages);
    expect(third).toContain('What is the capital of France?');
    expect(third).toContain('The capital is Paris.');
    expect(third).toContain('And now?');
  });

  const CODE_REPLY = ['Here is the function:', '', '```python', 'def add(a, b):', '    return a + b  # sum', '```', ''].join('\n');

  it('renders a reply with a code block highlighted in colour', async () => {
    server = await serve({ replies: { m: [textReply(CODE_REPLY)] } });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const pane = openPane(repo, [...cliArgs(server.url), '--edit-format', 'ask']);
    await pane.waitFor(askPrompted, 'the ask> prompt');
    pane.type('Write add');
    pane.keys('Enter');
    // The status line comes after the reply: wait for both before looking at either.
    const screen = await pane.waitFor((s) => s.includes('a + b') && /Tokens: \d+ sent/.test(s), 'the code block and status line', true);
    expect(screen).toMatch(/\u001b\[[0-9;]*m/);
    const defLine = screen.split('\n').find((line) => line.includes('add(a, b)')) ?? '';
    expect(defLine).toMatch(/\u001b\[[0-9;]*35m(\u001b\[[0-9;]*m)*\s*def/);
    // The fence lines are hidden on a terminal; the code is what shows.
    expect(screen).not.toContain('```');
  });

  it('renders the same reply without any escape codes under NO_COLOR', async () => {
    server = await serve({ replies: { m: [textReply(CODE_REPLY)] } });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const pane = openPane(repo, [...cliArgs(server.url), '--edit-format', 'ask'], { NO_COLOR: '1' });
    await pane.waitFor(askPrompted, 'the ask> prompt');
    pane.type('Write add');
    pane.keys('Enter');
    const screen = await pane.waitFor((s) => s.includes('a + b') && /Tokens: \d+ sent/.test(s), 'the code block and status line', true);
    expect(screen).not.toContain('\u001b');
    expect(screen).toContain('```python');
    expect(screen).toContain('def add(a, b):');
  });
});
