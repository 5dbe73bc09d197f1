// Issue 7's session side through the CLI: architect mode (planner, then editor), ask mode, file mentions.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { commitCount, gitRepo, read, statusShort } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sent = (request: { body: any }): string => (request.body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');
const edit = 'calc.py\n```\n<<<<<<< SEARCH\n    return a + b\n=======\n    return a + b + 0\n>>>>>>> REPLACE\n```\n';

describe('architect mode', () => {
  it('sends the planner prose to the editor model, whose edits are applied and committed', async () => {
    server = await startFakeOpenAI({
      replies: { planner: [textReply('In calc.py, make add() return a + b + 0.')], editor: [textReply(edit)], w: [textReply('refactor: pad add')] },
    });
    const repo = gitRepo({ 'calc.py': 'def add(a, b):\n    return a + b\n' });

    const run = await runCli(
      ['-m', 'pad the sum', '--architect', '--yes-always', '--no-stream', '--base-url', server.url, '--model', 'planner', '--editor-model', 'editor', '--weak-model', 'w', '--map-tokens', '0', 'calc.py'],
      { cwd: repo },
    );

    expect(run.code, run.stderr).toBe(0);
    const editorRequest = server.chatRequests('editor')[0]!;
    expect(sent(editorRequest)).toContain('make add() return a + b + 0');
    expect(sent(server.chatRequests('planner')[0]!)).toContain('pad the sum');
    expect(read(repo, 'calc.py')).toContain('return a + b + 0');
    expect(commitCount(repo)).toBe(2);
    expect(statusShort(repo)).toBe('');
  });
});

describe('ask mode', () => {
  it('answers without applying the edit blocks a reply may contain', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply(`You could do this:\n\n${edit}`)] } });
    const repo = gitRepo({ 'calc.py': 'def add(a, b):\n    return a + b\n' });
    const run = await runCli(['-m', '/ask how would you pad it?', '--yes-always', '--no-stream', '--base-url', server.url, '--model', 'm', '--map-tokens', '0', 'calc.py'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'calc.py')).toBe('def add(a, b):\n    return a + b\n');
  });
});

describe('file mentions', () => {
  it('adds a file the request names, with --yes-always, and sends its contents', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('Looks fine.')] } });
    const repo = gitRepo({ 'calc.py': 'x = 1\n', 'helpers/strings.py': 'SECRET_SAUCE = 42\n' });
    const run = await runCli(['-m', 'is strings.py ok?', '--yes-always', '--no-stream', '--base-url', server.url, '--model', 'm', '--map-tokens', '0', 'calc.py'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(sent(server.chatRequests('m')[0]!)).toContain('SECRET_SAUCE = 42');
  });

  it('redoes the request when the reply asks for a file, without applying that reply', async () => {
    const needs = 'I need to see helpers/strings.py before I can change this.';
    const fix = 'helpers/strings.py\n```\n<<<<<<< SEARCH\nSAUCE = 1\n=======\nSAUCE = 2\n>>>>>>> REPLACE\n```\n';
    server = await startFakeOpenAI({ replies: { m: [textReply(needs), textReply(fix)] }, fallback: textReply('chore: sauce') });
    const repo = gitRepo({ 'calc.py': 'x = 1\n', 'helpers/strings.py': 'SAUCE = 1\n' });
    const run = await runCli(['-m', 'double the sauce', '--yes-always', '--no-stream', '--base-url', server.url, '--model', 'm', '--map-tokens', '0', 'calc.py'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    const second = server.chatRequests('m')[1]!;
    expect(sent(second)).toContain('SAUCE = 1');
    expect(sent(second)).toMatch(/I added these files to the chat: helpers\/strings\.py/);
    expect(read(repo, 'helpers/strings.py')).toBe('SAUCE = 2\n');
  });
});
