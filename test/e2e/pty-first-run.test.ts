// On a real terminal (tmux): a repository's setting asks once with one hint, and
// --input-history-file keeps the typed lines where the user said.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRepo } from '../support/temp-repo.js';
import { cliArgs, count, promptShown, tmuxTests } from './pty-pane.js';

const { open: openPane, serve } = tmuxTests();

describe('first run on a terminal', () => {
  it("asks about a repository's test command with one hint, and writes the input history to --input-history-file", async () => {
    const server = await serve();
    const repo = gitRepo({ '.tandem.conf.yml': 'test-cmd: echo REPO-TESTS\n', 'a.py': 'A = 1\n' });
    const pane = openPane(repo, [...cliArgs(server.url), '--input-history-file', 'typed.txt'], {}, { joined: true });
    const question = await pane.waitFor((s) => s.includes('Allow tandem to run it?'), 'the approval question');
    expect(count(question, '(y)es/(n)o')).toBe(1);
    expect(question).not.toContain('(y/n)');
    pane.keys('y');
    await pane.waitFor((s) => promptShown(s), 'the prompt');
    pane.enter('/test');
    await pane.waitFor((s) => s.includes('Tests passed.'), 'the approved test command');
    pane.enter('/exit');
    await pane.waitFor(() => pane.exited(), 'tandem to leave');
    expect(readFileSync(join(repo, 'typed.txt'), 'utf8')).toContain('/test\n');
  });
});
