// Saved sessions as a daily user meets them: --sessions shows each session's date, first request and
// files; --resume without an id continues the latest interactive chat, not a one-shot run made since.
import { describe, expect, it } from 'vitest';
import { textReply, type FakeOpenAIServer, type FakeRequest } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { gitRepo } from '../support/temp-repo.js';
import { cliArgs, promptShown, tmuxTests } from './pty-pane.js';

const { open: openPane, serve } = tmuxTests();
let server: FakeOpenAIServer | undefined;

const sent = (request: FakeRequest): string => JSON.stringify(request.body.messages);

describe('saved sessions', () => {
  it('lists date, first request and files, and resumes the latest interactive session', async () => {
    server = await serve({ replies: { m: [textReply('Chat answer.'), textReply('One-shot answer.'), textReply('Resumed answer.')] } });
    const repo = gitRepo({ 'a.py': 'a = 1\n', 'b.py': 'b = 1\n' });
    const pane = openPane(repo, [...cliArgs(server.url), '--edit-format', 'ask', 'a.py']);
    await pane.waitFor((s) => promptShown(s, 'ask> '), 'the prompt');
    pane.enter('Interactive question about a');
    await pane.waitFor((s) => s.includes('Chat answer.') && promptShown(s.split('Chat answer.')[1] ?? '', 'ask> '), 'the answer');
    pane.enter('/exit');
    // tmux keeps the pane (remain-on-exit) and marks it dead once the process has ended.
    await pane.waitFor(() => pane.exited(), 'the chat to end');

    const oneShot = await runCli(['-m', 'One-shot question about b', ...cliArgs(server.url), '--edit-format', 'ask', 'b.py'], { cwd: repo });
    expect(oneShot.code, oneShot.stderr).toBe(0);

    const listed = await runCli(['--sessions'], { cwd: repo });
    expect(listed.stdout).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d\n\s+Interactive question about a\n\s+files: a\.py/);
    expect(listed.stdout).toMatch(/\(one-shot\)\n\s+One-shot question about b\n\s+files: b\.py/);

    const resumed = await runCli(['--resume', '-m', 'And now?', ...cliArgs(server.url), '--edit-format', 'ask'], { cwd: repo });
    expect(resumed.code, resumed.stderr).toBe(0);
    const third = sent(server.chatRequests('m')[2]!);
    expect(third).toContain('Interactive question about a');
    expect(third).not.toContain('One-shot question about b');
  });
});
