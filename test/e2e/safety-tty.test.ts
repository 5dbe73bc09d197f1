// On a real terminal (tmux): a person sees a repository's command with its escapes shown, the approval
// is stored for exactly that text and repository, and --yes-always leaves a hook edit to the person.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textReply } from '../support/fake-openai-server.js';
import { searchReplace } from '../support/replies.js';
import { markerPath } from '../support/safety.js';
import { gitRepo, read, tempDir } from '../support/temp-repo.js';
import { tmuxTests } from './pty-pane.js';

const ESC = '\u001b';

// Wide and joined, so a question with a long command reads as one line; the screen only, no scrollback.
const { open, serve } = tmuxTests({ columns: 200, rows: 50, joined: true, scrollback: 0 });
// Plain text, as these checks were written against: what matters is the characters a person sees.
const PLAIN = { NO_COLOR: '1' };

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
    const pane = open(repo, ['--map-tokens', '0', '--api-key', 'k'], PLAIN, { home });

    await pane.waitFor((s) => s.includes(`\\e[8m; touch ${marker} #\\e[0m`), 'the escaped command in the question');
    pane.enter('y');
    await pane.waitFor((s) => /^> $/m.test(s), 'the prompt');
    pane.enter('/exit');

    const approvals = JSON.parse(readFileSync(join(home, '.tandem', 'approved-commands.json'), 'utf8'));
    expect(approvals).toEqual([{ root: repo, text: command }]);
    expect(existsSync(marker)).toBe(false);
  });

  it('--yes-always leaves an edit of a git hook to the person at the terminal', async () => {
    const reply = [searchReplace('.husky/pre-commit', '', 'npm test\n'), searchReplace('a.py', 'a = 1\n', 'a = 2\n')].join('\n');
    const server = await serve({ replies: { m: [textReply(reply)] }, fallback: textReply('fix: a') });
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    const pane = open(repo, ['--base-url', server.url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--yes-always', 'a.py'], PLAIN, { home: freshHome() });

    await pane.waitFor((s) => /^> $/m.test(s), 'the prompt');
    pane.enter('add a hook');
    await pane.waitFor((s) => s.includes('Create new file .husky/pre-commit? Careful'), 'the question for the person');
    pane.enter('n');
    await pane.waitFor((s) => s.includes('Applied edit to a.py'), 'the other edit applied');
    await pane.waitFor((s) => /^> $/m.test(s.split('Applied edit to a.py')[1] ?? ''), 'the prompt again');
    pane.enter('/exit');

    expect(read(repo, 'a.py')).toBe('a = 2\n');
    expect(existsSync(join(repo, '.husky/pre-commit'))).toBe(false);
  });
});
