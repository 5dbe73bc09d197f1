// What the models are told outside requests: after /undo the main model learns its change was
// reverted; /commit without a message has the weak model write one; /lint runs the syntax check.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { searchReplace } from '../support/replies.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, gitRepo, read } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('notes in the history', () => {
  it('tells the model after /undo that its last change was reverted', async () => {
    server = await startFakeOpenAI({
      replies: { m: [textReply(searchReplace('a.py', 'a = 1\n', 'a = 2\n')), textReply('Understood, a is 1 again.')], w: [textReply('fix: set a to 2')] },
    });
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    const args = ['--base-url', server.url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', 'a.py'];
    const run = await runCli(args, { cwd: repo, stdin: 'set a to 2\n/undo\nwhat is a now?\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'a.py')).toBe('a = 1\n');
    const third = JSON.stringify(server.chatRequests('m')[1]!.body.messages);
    expect(third).toContain('reverted your last change with /undo');
    expect(third.indexOf('reverted your last change')).toBeLessThan(third.indexOf('what is a now?'));
  });

  it('/commit without a message has the weak model write one from the pending diff', async () => {
    server = await startFakeOpenAI({ replies: { w: [textReply('docs: explain the setup step')] } });
    const repo = gitRepo({ 'README.md': '# r\n' });
    writeFileSync(join(repo, 'README.md'), '# r\n\nRun npm install first.\n');
    const args = ['--base-url', server.url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0'];
    const run = await runCli(args, { cwd: repo, stdin: '/commit\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('docs: explain the setup step');
    expect(JSON.stringify(server.chatRequests('w')[0]!.body.messages)).toContain('Run npm install first.');
  });

  it('/lint without --lint-cmd runs the syntax check and sends its problems to the model', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('I will fix the syntax.')] } });
    const repo = gitRepo({ 'ok.py': 'x = 1\n', 'broken.py': 'def f(:\n    return 1\n' });
    const args = ['--base-url', server.url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--edit-format', 'ask', 'ok.py', 'broken.py'];
    const run = await runCli(args, { cwd: repo, stdin: '/lint\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('broken.py');
    expect(run.stdout).not.toContain('No lint command');
    const sent = JSON.stringify(server.chatRequests('m')[0]!.body.messages);
    expect(sent).toContain('Lint failed');
    expect(sent).toContain('broken.py');
  });
});
