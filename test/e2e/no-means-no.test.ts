// No means no, through the real CLI on a terminal (tmux): a user's "no" to an edit outside the chat or
// to adding a file is not sent back to the model as a failure to retry, the request ends after the
// other edits, and a declined file is not asked about again in that chat.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { baseEnv, CLI } from '../support/cli.js';
import { gitRepo, read, tempDir } from '../support/temp-repo.js';

const TMUX = '/usr/bin/tmux';
// A guard against a hang only; nothing here measures time.
const GUARD_MS = 15000;

let server: FakeOpenAIServer | undefined;
let socket: string | undefined;

beforeAll(() => {
  if (!existsSync(TMUX)) throw new Error(`this test drives the CLI through tmux, which is missing at ${TMUX}: install tmux`);
});

afterEach(async () => {
  if (socket) {
    try {
      execFileSync(TMUX, ['-L', socket, 'kill-server']);
    } catch {
      // the server is already gone
    }
  }
  socket = undefined;
  await server?.close();
  server = undefined;
});

const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

function terminal(cwd: string, args: readonly string[]) {
  const name = `tandem-nomeansno-${process.pid}-${Date.now()}`;
  socket = name;
  const home = join(tempDir('tandem-home-'), 'home');
  mkdirSync(home, { recursive: true });
  const env: Record<string, string> = { ...baseEnv(home), TERM: 'xterm-256color', LANG: 'C.UTF-8' };
  const command = ['env', '-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), process.execPath, CLI, ...args].map(quote).join(' ');
  const tmux = (...words: string[]): string => execFileSync(TMUX, ['-L', name, '-f', '/dev/null', ...words], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'main', '-x', '150', '-y', '50', '-c', cwd, command);
  tmux('set-option', '-t', 'main', 'remain-on-exit', 'on');
  const screen = (): string => tmux('capture-pane', '-p', '-J', '-S', '-500', '-t', 'main');
  return {
    screen,
    send(text: string): void {
      tmux('send-keys', '-t', 'main', '-l', text);
      tmux('send-keys', '-t', 'main', 'Enter');
    },
    /** Polls the screen until `test` holds (a timeout guard, not a measurement). */
    async waitFor(test: (screen: string) => boolean, what: string): Promise<string> {
      const deadline = Date.now() + GUARD_MS;
      let last = '';
      while (Date.now() < deadline) {
        last = screen();
        if (test(last)) return last;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
    },
  };
}

const count = (text: string, part: string): number => text.split(part).length - 1;
/** The prompt is back: the last non-blank line is the bare prompt, shown `n` times so far. */
const promptedTimes = (n: number) => (s: string): boolean => {
  const lines = s.split('\n').filter((l) => l.trim() !== '');
  return lines.at(-1)?.trimEnd() === '>' && lines.filter((l) => l.startsWith('> ') || l.trimEnd() === '>').length >= n;
};

function block(path: string, search: string, replace: string): string {
  return `${path}\n\`\`\`python\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;
}

describe('no means no', () => {
  it('a declined edit and a declined file end the request, go not back to the model, and are not asked again', async () => {
    const first = `I'll update both.\n\n${block('a.py', 'A = 1', 'A = 2')}\n${block('b.py', 'B = 1', 'B = 2')}`;
    const second = 'To do that I need to see c.py first.';
    const third = `Trying b.py again; c.py may matter too.\n\n${block('b.py', 'B = 1', 'B = 3')}`;
    server = await startFakeOpenAI({ replies: { m: [textReply(first), textReply(second), textReply(third)] }, fallback: textReply('chore: edit') });
    const repo = gitRepo({ 'a.py': 'A = 1\n', 'b.py': 'B = 1\n', 'c.py': 'C = 1\n' });
    const pane = terminal(repo, ['--base-url', server.url, '--api-key', 'test', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', 'a.py']);
    await pane.waitFor(promptedTimes(1), 'the prompt');

    pane.send('change A and B');
    await pane.waitFor((s) => s.includes('Allow edits to b.py, which is not in the chat?'), 'the question about b.py');
    pane.send('n');
    await pane.waitFor(promptedTimes(2), 'the prompt after the first request');
    expect(read(repo, 'a.py')).toBe('A = 2\n');
    expect(read(repo, 'b.py')).toBe('B = 1\n');
    // The "no" was not sent back for a retry: one model request for this user request.
    expect(server.chatRequests('m')).toHaveLength(1);

    pane.send('now use C');
    await pane.waitFor((s) => s.includes('Add c.py to the chat?'), 'the offer of c.py');
    pane.send('n');
    await pane.waitFor(promptedTimes(3), 'the prompt after the second request');
    expect(server.chatRequests('m')).toHaveLength(2);

    pane.send('try once more');
    const end = await pane.waitFor((s) => s.includes('Trying b.py again') && promptedTimes(4)(s), 'the third reply and the prompt');
    expect(count(end, 'Allow edits to b.py')).toBe(1);
    expect(count(end, 'Add c.py to the chat?')).toBe(1);
    expect(read(repo, 'b.py')).toBe('B = 1\n');
    expect(server.chatRequests('m')).toHaveLength(3);
    // Nothing about the user's answers was sent to the model as something to fix.
    const sent = JSON.stringify(server.chatRequests('m').map((r) => r.body.messages.at(-1)?.content));
    expect(sent).not.toMatch(/did not allow|not applied/);
  });
});
