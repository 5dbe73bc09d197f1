// On a real terminal (tmux): a person sees a repository's command with its escapes shown, the approval
// is stored for exactly that text and repository, and --yes-always leaves a hook edit to the person.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { baseEnv, CLI } from '../support/cli.js';
import { searchReplace } from '../support/replies.js';
import { markerPath } from '../support/safety.js';
import { gitRepo, read, tempDir } from '../support/temp-repo.js';

const TMUX = '/usr/bin/tmux';
const WAIT_MS = 10_000;
const ESC = '\u001b';

interface Pane {
  type(text: string): void;
  enter(): void;
  waitFor(test: (screen: string) => boolean, what: string): Promise<string>;
  kill(): void;
}

const panes: Pane[] = [];
let server: FakeOpenAIServer | undefined;

beforeAll(() => {
  if (!existsSync(TMUX)) throw new Error(`these tests need tmux at ${TMUX}: install tmux`);
});

afterEach(async () => {
  for (const pane of panes.splice(0)) pane.kill();
  await server?.close();
  server = undefined;
});

const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

function openPane(cwd: string, home: string, args: readonly string[]): Pane {
  const socket = `tandem-safety-${process.pid}-${panes.length}-${Date.now()}`;
  const env = { ...baseEnv(home), TERM: 'xterm-256color', LANG: 'C.UTF-8' };
  const command = ['env', '-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), process.execPath, CLI, ...args].map(quote).join(' ');
  const tmux = (...words: string[]): string => execFileSync(TMUX, ['-L', socket, '-f', '/dev/null', ...words], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'main', '-x', '200', '-y', '50', '-c', cwd, command);
  tmux('set-option', '-t', 'main', 'remain-on-exit', 'on');
  const pane: Pane = {
    type: (text) => void tmux('send-keys', '-t', 'main', '-l', text),
    enter: () => void tmux('send-keys', '-t', 'main', 'Enter'),
    async waitFor(test, what) {
      const deadline = Date.now() + WAIT_MS;
      let last = '';
      while (Date.now() < deadline) {
        last = tmux('capture-pane', '-p', '-J', '-t', 'main');
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

function freshHome(): string {
  const home = join(tempDir('tandem-home-'), 'home');
  mkdirSync(home, { recursive: true });
  return home;
}

describe('questions on a terminal', () => {
  it("shows a repository's command whole with its escapes visible, and stores the approval for exactly it", async () => {
    const marker = markerPath();
    const command = `echo ok ${ESC}[8m; touch ${marker} #${ESC}[0m`;
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.tandem.conf.yml': `test-cmd: ${JSON.stringify(command)}\n` });
    const home = freshHome();
    const pane = openPane(repo, home, ['--map-tokens', '0', '--api-key', 'k']);

    await pane.waitFor((s) => s.includes(`\\e[8m; touch ${marker} #\\e[0m`), 'the escaped command in the question');
    pane.type('y');
    pane.enter();
    await pane.waitFor((s) => /^> $/m.test(s), 'the prompt');
    pane.type('/exit');
    pane.enter();

    const approvals = JSON.parse(readFileSync(join(home, '.tandem', 'approved-commands.json'), 'utf8'));
    expect(approvals).toEqual([{ root: repo, text: command }]);
    expect(existsSync(marker)).toBe(false);
  });

  it('--yes-always leaves an edit of a git hook to the person at the terminal', async () => {
    const reply = [searchReplace('.husky/pre-commit', '', 'npm test\n'), searchReplace('a.py', 'a = 1\n', 'a = 2\n')].join('\n');
    server = await startFakeOpenAI({ replies: { m: [textReply(reply)] }, fallback: textReply('fix: a') });
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    const pane = openPane(repo, freshHome(), ['--base-url', server.url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--yes-always', 'a.py']);

    await pane.waitFor((s) => /^> $/m.test(s), 'the prompt');
    pane.type('add a hook');
    pane.enter();
    await pane.waitFor((s) => s.includes('Create new file .husky/pre-commit? Careful'), 'the question for the person');
    pane.type('n');
    pane.enter();
    await pane.waitFor((s) => s.includes('Applied edit to a.py'), 'the other edit applied');
    await pane.waitFor((s) => /^> $/m.test(s.split('Applied edit to a.py')[1] ?? ''), 'the prompt again');
    pane.type('/exit');
    pane.enter();

    expect(read(repo, 'a.py')).toBe('a = 2\n');
    expect(existsSync(join(repo, '.husky/pre-commit'))).toBe(false);
  });
});
