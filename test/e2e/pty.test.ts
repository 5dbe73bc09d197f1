// The real CLI on a real pseudo-terminal (tmux): Tab completion, Ctrl-C during a streamed reply, and
// coloured Markdown that disappears under NO_COLOR.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { baseEnv, CLI } from '../support/cli.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

const TMUX = '/usr/bin/tmux';
const WAIT_MS = 8000;

interface Pane {
  readonly socket: string;
  keys(...keys: string[]): void;
  type(text: string): void;
  screen(colours?: boolean): string;
  /** Polls the screen until `test` holds; fails with the last screen after the deadline. */
  waitFor(test: (screen: string) => boolean, what: string, colours?: boolean): Promise<string>;
  kill(): void;
}

const panes: Pane[] = [];
let server: FakeOpenAIServer | undefined;

beforeAll(() => {
  if (!existsSync(TMUX)) throw new Error(`these tests drive the CLI through tmux, which is missing at ${TMUX}: install tmux`);
});

afterEach(async () => {
  for (const pane of panes.splice(0)) pane.kill();
  await server?.close();
  server = undefined;
});

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function openPane(cwd: string, args: readonly string[], env: Record<string, string> = {}): Pane {
  const socket = `tandem-test-${process.pid}-${panes.length}-${Date.now()}`;
  const home = join(tempDir('tandem-home-'), 'home');
  mkdirSync(home, { recursive: true });
  // baseEnv sets NO_COLOR for the piped tests; on a terminal colour is what is being tested.
  const { NO_COLOR: _unused, ...inherited } = baseEnv(home);
  const fullEnv: Record<string, string> = { ...inherited, TERM: 'xterm-256color', LANG: 'C.UTF-8', ...env };
  const command = ['env', '-i', ...Object.entries(fullEnv).map(([k, v]) => `${k}=${v}`), process.execPath, CLI, ...args].map(shellQuote).join(' ');
  const tmux = (...words: string[]): string => execFileSync(TMUX, ['-L', socket, '-f', '/dev/null', ...words], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'main', '-x', '120', '-y', '40', '-c', cwd, command);
  // Keep the pane after the CLI exits, so a failure shows what it printed last.
  tmux('set-option', '-t', 'main', 'remain-on-exit', 'on');
  const pane: Pane = {
    socket,
    keys: (...keys) => void tmux('send-keys', '-t', 'main', ...keys),
    type: (text) => void tmux('send-keys', '-t', 'main', '-l', text),
    screen: (colours = false) => tmux('capture-pane', '-p', '-J', '-t', 'main', ...(colours ? ['-e'] : [])),
    async waitFor(test, what, colours = false) {
      const deadline = Date.now() + WAIT_MS;
      let last = '';
      while (Date.now() < deadline) {
        try {
          last = pane.screen(colours);
        } catch {
          last = '(the pane is gone: the CLI exited)';
        }
        if (test(last)) return last;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
    },
    kill: () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
  panes.push(pane);
  return pane;
}

function cliArgs(url: string): string[] {
  return ['--base-url', url, '--api-key', 'test', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--no-auto-commits'];
}

const prompted = (screen: string): boolean => /^> $/m.test(screen);

describe('the CLI on a terminal', () => {
  it('completes /ad to /add and a partial path to a repository file with Tab', async () => {
    server = await startFakeOpenAI();
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
    server = await startFakeOpenAI({
      replies: { m: [textReply('The capital is Paris.'), textReply(slow, { chunkSize: 5, chunkDelayMs: 40 }), textReply('Noted.')] },
    });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const pane = openPane(repo, [...cliArgs(server.url), '--edit-format', 'ask']);
    await pane.waitFor(prompted, 'the prompt');
    pane.type('What is the capital of France?');
    pane.keys('Enter');
    await pane.waitFor((s) => s.includes('The capital is Paris.'), 'the first reply');
    await pane.waitFor(prompted, 'the prompt after the first reply');
    pane.type('Tell me a long story');
    pane.keys('Enter');
    await pane.waitFor((s) => s.includes('streams very slowly'), 'the slow reply to start');
    pane.keys('C-c');
    await pane.waitFor((s) => s.includes('(reply interrupted)') && /^> $/m.test(s.split('(reply interrupted)')[1] ?? ''), 'the prompt after Ctrl-C');
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
    server = await startFakeOpenAI({ replies: { m: [textReply(CODE_REPLY)] } });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const pane = openPane(repo, [...cliArgs(server.url), '--edit-format', 'ask']);
    await pane.waitFor(prompted, 'the prompt');
    pane.type('Write add');
    pane.keys('Enter');
    const screen = await pane.waitFor((s) => s.includes('a + b'), 'the code block', true);
    expect(screen).toMatch(/\u001b\[[0-9;]*m/);
    const defLine = screen.split('\n').find((line) => line.includes('add(a, b)')) ?? '';
    expect(defLine).toMatch(/\u001b\[[0-9;]*35m(\u001b\[[0-9;]*m)*\s*def/);
    expect(screen).toMatch(/Tokens: \d+ sent/);
  });

  it('renders the same reply without any escape codes under NO_COLOR', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply(CODE_REPLY)] } });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const pane = openPane(repo, [...cliArgs(server.url), '--edit-format', 'ask'], { NO_COLOR: '1' });
    await pane.waitFor(prompted, 'the prompt');
    pane.type('Write add');
    pane.keys('Enter');
    const screen = await pane.waitFor((s) => s.includes('a + b') && /Tokens: \d+ sent/.test(s), 'the code block and status line', true);
    expect(screen).not.toContain('\u001b');
    expect(screen).toContain('```python');
    expect(screen).toContain('def add(a, b):');
  });
});
