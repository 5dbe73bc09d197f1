// Issue 6 through the real CLI: resume (also after a torn write), history summaries, AGENTS.md,
// SIGINT and cut connections that never leave half-applied edits.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hangReply, partialReply, startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli } from '../support/cli.js';
import { signalProcess } from '../support/pid-file.js';
import { gitRepo, read, statusShort, writeFiles } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const args = (url: string): string[] => ['--no-stream', '--base-url', url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0'];
const sentText = (request: { body: any }): string => (request.body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');

function logFiles(repo: string): string[] {
  const dir = join(repo, '.tandem', 'sessions');
  return readdirSync(dir).map((name) => join(dir, name));
}

describe('resume', () => {
  it('carries the first exchange into the next process', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('The answer is forty-two.'), textReply('Still forty-two.')] } });
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    const first = await runCliInProcess(['-m', 'What is the answer?', ...args(server.url), 'a.py'], { cwd: repo });
    expect(first.code, first.stderr).toBe(0);

    const second = await runCliInProcess(['--resume', '-m', 'Are you sure?', ...args(server.url)], { cwd: repo });

    expect(second.code, second.stderr).toBe(0);
    const sent = sentText(server.chatRequests('m')[1]!);
    expect(sent).toContain('What is the answer?');
    expect(sent).toContain('The answer is forty-two.');
    expect(sent).toContain('a = 1');
    expect(statusShort(repo)).toBe('');
  });

  it('drops a torn last line with a notice and still resumes', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('First answer.'), textReply('Second answer.')] } });
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    await runCliInProcess(['-m', 'First question', ...args(server.url), 'a.py'], { cwd: repo });
    const [log] = logFiles(repo);
    appendFileSync(log!, '{"type":"message","role":"user","cont');

    const second = await runCliInProcess(['--resume', '-m', 'Second question', ...args(server.url)], { cwd: repo });

    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/torn last line/);
    expect(sentText(server.chatRequests('m')[1]!)).toContain('First answer.');
    for (const line of readFileSync(log!, 'utf8').trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('refuses a log corrupt in the middle, naming file and line, and changes nothing', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('First answer.')] } });
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    await runCliInProcess(['-m', 'First question', ...args(server.url), 'a.py'], { cwd: repo });
    const [log] = logFiles(repo);
    const lines = readFileSync(log!, 'utf8').split('\n');
    lines.splice(1, 0, 'not json');
    const corrupt = lines.join('\n');
    writeFiles(repo, { [log!.slice(repo.length + 1)]: corrupt });

    const second = await runCliInProcess(['--resume', '-m', 'again', ...args(server.url)], { cwd: repo });

    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/\.jsonl:2: not a valid log line/);
    expect(readFileSync(log!, 'utf8')).toBe(corrupt);
  });
});

describe('context', () => {
  it('summarizes old turns with the weak model once the history is over its budget', async () => {
    const long = 'word '.repeat(200);
    server = await startFakeOpenAI({
      replies: { m: [textReply(`one ${long}`), textReply(`two ${long}`), textReply(`three ${long}`)], w: [textReply('SUMMARY: we discussed one and two.')] },
    });
    const repo = gitRepo({ 'a.py': 'a = 1\n' });

    const run = await runCliInProcess([...args(server.url), '--max-chat-history-tokens', '300', 'a.py'], {
      cwd: repo,
      stdin: 'first question\nsecond question\nthird question\n',
    });

    expect(run.code, run.stderr).toBe(0);
    expect(server.chatRequests('w')).toHaveLength(1);
    const third = sentText(server.chatRequests('m')[2]!);
    expect(third).toContain('SUMMARY: we discussed one and two.');
    expect(third).not.toContain('first question');
    expect(third).toContain('second question');
  });

  it('sends AGENTS.md, and cuts a huge one with a note', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('ok'), textReply('ok')] } });
    const repo = gitRepo({ 'a.py': 'a = 1\n', 'AGENTS.md': 'Always use tabs in this project.\n' });
    const small = await runCliInProcess(['-m', 'hi', ...args(server.url), 'a.py'], { cwd: repo });
    expect(small.code, small.stderr).toBe(0);
    expect(sentText(server.chatRequests('m')[0]!)).toContain('Always use tabs in this project.');

    writeFiles(repo, { 'AGENTS.md': `RULES START\n${'x'.repeat(1024 * 1024)}\n` });
    const big = await runCliInProcess(['-m', 'hi', ...args(server.url), 'a.py'], { cwd: repo });

    expect(big.code, big.stderr).toBe(0);
    expect(big.stderr).toMatch(/AGENTS\.md is .* characters; only the first/);
    const sent = sentText(server.chatRequests('m')[1]!);
    expect(sent).toContain('RULES START');
    expect(sent.length).toBeLessThan(100_000);
  });
});

describe('the context window', () => {
  it('names the part that does not fit and asks instead of sending; headless that is exit 4', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('never sent')] } });
    const repo = gitRepo({ 'small.py': 'x = 1\n', 'big.py': `${'value = 12345\n'.repeat(2000)}` });

    const run = await runCliInProcess(['-m', 'hi', '--context-window', '2000', ...args(server.url), 'small.py', 'big.py'], { cwd: repo });

    expect(run.code).toBe(4);
    expect(server.chatRequests('m')).toHaveLength(0);
    expect(run.stderr + run.stdout).toMatch(/chat files .*mostly big\.py/);
  });
});

describe('interrupts and cut replies', () => {
  it('exits 130 on SIGINT while waiting, with a valid log and no file changed', async () => {
    server = await startFakeOpenAI({ replies: { m: [hangReply()] } });
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    let pid = 0;
    const running = runCli(['-m', 'change a', '--yes-always', ...args(server.url), 'a.py'], { cwd: repo, onSpawn: (p) => (pid = p) });
    await server.waitForChatRequests(1);
    signalProcess(pid, 'SIGINT');
    const run = await running;

    expect(run.code).toBe(130);
    expect(read(repo, 'a.py')).toBe('a = 1\n');
    for (const file of logFiles(repo)) {
      for (const line of readFileSync(file, 'utf8').trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    }
  });

  it('applies no edit from a reply cut mid-stream', async () => {
    const edit = 'a.py\n```\n<<<<<<< SEARCH\na = 1\n=======\na = 2\n>>>>>>> REPLACE\n```\n';
    server = await startFakeOpenAI({ replies: { m: [partialReply(edit, 3, 'destroy', { chunkSize: 30 })] } });
    const repo = gitRepo({ 'a.py': 'a = 1\n' });

    const run = await runCliInProcess(['-m', 'change a', '--yes-always', '--base-url', server.url, '--model', 'm', '--map-tokens', '0', 'a.py'], { cwd: repo });

    expect(run.code).toBe(1);
    expect(read(repo, 'a.py')).toBe('a = 1\n');
    expect(run.stderr).toMatch(/No edits from the partial reply were applied/);
  });
});
