// Issue 2's walking skeleton through the real CLI: a request, an applied SEARCH/REPLACE, a commit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorReply, startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli } from '../support/cli.js';
import { commitCount, git, gitRepo, read, statusShort } from '../support/temp-repo.js';

const HELLO = 'def hello():\n    print("hello")\n';
const EDIT = [
  'I will change the greeting.',
  '',
  'hello.py',
  '```python',
  '<<<<<<< SEARCH',
  '    print("hello")',
  '=======',
  '    print("hello, world")',
  '>>>>>>> REPLACE',
  '```',
  '',
].join('\n');

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function baseArgs(url: string): string[] {
  return ['--base-url', url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0'];
}

describe('one-shot request', () => {
  it('applies the reply, commits with the weak model message and exits 0', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply(EDIT)], w: [textReply('fix: greet the whole world')] } });
    const repo = gitRepo({ 'hello.py': HELLO });

    const run = await runCliInProcess(['--message', 'Greet the world', '--yes-always', '--no-stream', ...baseArgs(server.url), 'hello.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'hello.py')).toBe('def hello():\n    print("hello, world")\n');
    expect(commitCount(repo)).toBe(2);
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('fix: greet the whole world\n');
    expect(git(repo, 'log', '-1', '--format=%B')).toContain('Tandem-Commit: yes');
    expect(statusShort(repo)).toBe('');
    const request = server.chatRequests('m')[0]!.body as { messages: Array<{ content: string }> };
    const sent = request.messages.map((m) => m.content).join('\n');
    expect(sent).toContain('Greet the world');
    expect(sent).toContain('print("hello")');
    expect(server.chatRequests('w')).toHaveLength(1);
  });

  it('streams, retries after a 500 and still applies', async () => {
    server = await startFakeOpenAI({
      replies: { m: [errorReply(500, 'try again'), textReply(EDIT, { chunkSize: 7 })], w: [textReply('fix: greet the world')] },
    });
    const repo = gitRepo({ 'hello.py': HELLO });

    const run = await runCliInProcess(['-m', 'Greet the world', '--yes-always', ...baseArgs(server.url), 'hello.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    expect(server.chatRequests('m')).toHaveLength(2);
    expect(server.chatRequests('m')[1]!.stream).toBe(true);
    expect(read(repo, 'hello.py')).toContain('hello, world');
    expect(statusShort(repo)).toBe('');
  });

  it('says in one sentence that an unreachable server is unreachable, and exits 1', async () => {
    const repo = gitRepo({ 'hello.py': HELLO });

    const run = await runCliInProcess(['-m', 'hi', '--max-retries', '0', ...baseArgs('http://127.0.0.1:9/v1'), 'hello.py'], { cwd: repo });

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Cannot reach the model server at http:\/\/127\.0\.0\.1:9\/v1/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(read(repo, 'hello.py')).toBe(HELLO);
  });

  it('refuses to edit a file outside the chat in --json mode and exits 4', async () => {
    const other = ['other.py', '```python', '<<<<<<< SEARCH', 'x = 1', '=======', 'x = 2', '>>>>>>> REPLACE', '```', ''].join('\n');
    server = await startFakeOpenAI({ replies: { m: [textReply(other)] } });
    const repo = gitRepo({ 'hello.py': HELLO, 'other.py': 'x = 1\n' });

    const run = await runCliInProcess(['-m', 'change x', '--json', ...baseArgs(server.url), 'hello.py'], { cwd: repo });

    expect(run.code).toBe(4);
    expect(read(repo, 'other.py')).toBe('x = 1\n');
    expect(commitCount(repo)).toBe(1);
    const events = run.events();
    expect(events.find((e) => e.type === 'question')).toMatchObject({ answer: false });
    expect(events.find((e) => e.type === 'edit')).toMatchObject({ path: 'other.py', status: 'denied' });
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'approval_required' });
  });

  it('--json prints only JSON lines, ending with the result, and --llm-log records the exchange', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply(EDIT)], w: [textReply('fix: greet the world')] } });
    const repo = gitRepo({ 'hello.py': HELLO });
    const log = join(repo, '..', 'llm.jsonl');

    const run = await runCliInProcess(['-m', 'Greet the world', '--json', '--yes-always', '--llm-log', log, ...baseArgs(server.url), 'hello.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    const events = run.events();
    expect(events[0]).toMatchObject({ type: 'session', model: 'm', editFormat: 'diff', files: ['hello.py'] });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['user', 'assistant', 'edit', 'commit', 'usage']));
    expect(events.find((e) => e.type === 'edit')).toMatchObject({ path: 'hello.py', status: 'applied' });
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'completed', totals: { commits: 1, editsApplied: 1 } });
    const logged = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(logged.map((entry) => entry.request.model)).toEqual(['m', 'w']);
    expect(logged[0].response.text).toBe(EDIT);
  });

  it('runs a slash command given as the message', async () => {
    const repo = gitRepo({ 'hello.py': HELLO });

    const run = await runCliInProcess(['-m', '/ls', '--map-tokens', '0', 'hello.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('hello.py');
  });

  it('rejects bad values and unknown flags with exit 2 and one line', async () => {
    const repo = gitRepo({ 'hello.py': HELLO });
    const bogus = await runCli(['--edit-format', 'bogus'], { cwd: repo });
    const negative = await runCli(['--map-tokens', '-5'], { cwd: repo });
    const unknown = await runCli(['--frobnicate'], { cwd: repo });

    expect([bogus.code, negative.code, unknown.code]).toEqual([2, 2, 2]);
    expect(bogus.stderr.trim().split('\n')).toHaveLength(1);
    expect(bogus.stderr).toMatch(/--edit-format.*diff, diff-fenced, whole, udiff/);
    expect(negative.stderr).toMatch(/--map-tokens/);
    expect(unknown.stderr).toMatch(/--frobnicate/);
  });
});
