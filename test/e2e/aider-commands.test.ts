// Issue 25: the commands and options an Aider user reaches for, through the real CLI in process with
// real repositories and the scripted server: /save and /load, /ls, --subtree-only, /test CMD, /lint,
// the one-shot --lint/--test/--commit, chat modes, /help QUESTION, history files and attribution.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorReply, startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { searchReplace } from '../support/replies.js';
import { commitCount, git, gitRepo, tempDir } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const args = (url: string, ...more: string[]): string[] => ['--base-url', url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--json', ...more];
const infos = (run: { events: () => Array<Record<string, any>> }): string =>
  run.events().filter((e) => e.type === 'info' || e.type === 'error').map((e) => String(e.message)).join('\n');
const bodyText = (request: { body: any }): string => JSON.stringify(request.body.messages);

describe('/save and /load', () => {
  it('restores the same files, read-only ones included, in a new process with --load', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const outside = join(tempDir(), 'notes.md');
    writeFileSync(outside, 'OUTSIDE-NOTES\n');
    const repo = gitRepo({ 'a.py': 'ALPHA = 1\n', 'my dir/b.py': 'BETA = 2\n', 'c.md': 'GAMMA-DOC\n', 'd.py': 'DELTA = 4\n' });
    // The user's own command file lives outside the repository (one inside it may have come with a clone).
    const saved = join(tempDir(), 'chat.cmds');
    const first = await runCli(args(server.url), { cwd: repo, stdin: ['/add a.py "my dir/b.py"', '/read-only c.md', `/read-only ${outside}`, `/save ${saved}`].join('\n') + '\n' });
    expect(first.code, first.stderr).toBe(0);
    const text = readFileSync(saved, 'utf8');
    expect(text.split('\n').filter((l) => l.startsWith('/'))).toEqual(['/drop', '/add a.py', '/add "my dir/b.py"', '/read-only c.md', `/read-only ${outside}`]);

    // A new process: --load runs the file before the request, which then carries all four files.
    const second = await runCli(args(server.url, '--load', saved, '--message', 'what is here?', 'd.py'), { cwd: repo });
    expect(second.code, second.stderr).toBe(0);
    const requests = server.chatRequests('m');
    expect(requests).toHaveLength(1);
    const body = bodyText(requests[0]!);
    for (const marker of ['ALPHA = 1', 'BETA = 2', 'GAMMA-DOC', 'OUTSIDE-NOTES']) expect(body).toContain(marker);
    // /drop first: the loaded file set replaces the one the command line gave
    expect(body).not.toContain('DELTA = 4');
  });

  it('stops at the first failing line and names it, in the chat and at start', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const repo = gitRepo({ 'a.py': 'A = 1\n', 'b.py': 'B = 2\n' });
    writeFileSync(join(repo, 'bad.cmds'), '# comment\n/add a.py\n/add missing.py\n/add b.py\n');
    const inChat = await runCli(args(server.url), { cwd: repo, stdin: '/load bad.cmds\n/ls\n' });
    expect(inChat.code).toBe(1);
    const printed = infos(inChat);
    expect(printed).toContain('bad.cmds:3: /add failed; stopped there ("/add missing.py")');
    expect(printed).toMatch(/Files in the chat:\n {2}a\.py\n(?!.*b\.py)/);

    const atStart = await runCli(args(server.url, '--load', 'bad.cmds', '--message', 'hi'), { cwd: repo });
    expect(atStart.code).toBe(2);
    expect(atStart.stderr).toContain('--load: bad.cmds:3:');
    expect(server.chatRequests()).toHaveLength(0);
  });

  it('from a file that came with the repository, runs only chat-shaping commands, even with --yes-always', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const secret = join(tempDir(), 'id_rsa');
    writeFileSync(secret, 'PRIVATE-KEY\n');
    const repo = gitRepo({ 'a.py': 'A = 1\n', '.tandem/session.cmds': `/add a.py\n/read-only ${secret}\n`, 'run.cmds': '/add a.py\n/run touch pwned\n' });
    const ran = await runCli(args(server.url, '--yes-always', '--load', 'run.cmds', '--message', 'hi'), { cwd: repo });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('run.cmds:2: /run is not run from a file inside the repository');
    expect(existsSync(join(repo, 'pwned'))).toBe(false);
    const read = await runCli(args(server.url, '--yes-always'), { cwd: repo, stdin: '/load .tandem/session.cmds\nhi\n' });
    expect(infos(read)).toContain(`.tandem/session.cmds:2: /read-only ${secret} lies outside the repository`);
    const body = bodyText(server.chatRequests('m')[0]!);
    expect(body).toContain('A = 1'); // the run got as far as a request with the first line's file
    expect(body).not.toContain('PRIVATE-KEY');
  });
});

describe('/ls and --subtree-only', () => {
  it('/ls lists chat files, read-only files, then the other files with a count', async () => {
    const repo = gitRepo({ 'a.py': 'A\n', 'b.py': 'B\n', 'docs/c.md': 'C\n' });
    const run = await runCli(args('http://127.0.0.1:9/v1'), { cwd: repo, stdin: '/add a.py\n/read-only b.py\n/ls\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(infos(run)).toContain('Files in the chat:\n  a.py\nRead-only:\n  b.py\nOther files in the repository (1):\n  docs/c.md');
  });

  it('from a subfolder, the map in the request body holds only files under it', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const repo = gitRepo({
      'app/core.py': 'def inside_function():\n    return 1\n',
      'app/more.py': 'from core import inside_function\n\ndef caller():\n    return inside_function()\n',
      'lib/other.py': 'def outside_function():\n    return 2\n',
    });
    const cwd = join(repo, 'app');
    const base = ['--base-url', server.url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--json', '--map-tokens', '1024'];
    const whole = await runCli([...base, '--message', 'hi'], { cwd });
    expect(whole.code, whole.stderr).toBe(0);
    expect(bodyText(server.chatRequests('m')[0]!)).toContain('outside_function'); // the map was really on
    const narrowed = await runCli([...base, '--subtree-only', '--message', 'hi', '--no-stream'], { cwd, stdin: '' });
    expect(narrowed.code, narrowed.stderr).toBe(0);
    const body = bodyText(server.chatRequests('m')[1]!);
    expect(body).toContain('inside_function');
    expect(body).not.toContain('outside_function');
    expect(body).not.toContain('lib/other.py');
    const ls = await runCli(args(server.url, '--subtree-only'), { cwd, stdin: '/ls\n' });
    expect(infos(ls)).toContain('Other files in the repository (2):\n  app/core.py\n  app/more.py');
  });
});

describe('/test CMD and /lint', () => {
  it('/test CMD runs CMD and sends its failure to the model; /test without one and no --test-cmd fails', async () => {
    server = await startFakeOpenAI({ fallback: textReply('I see.') });
    const repo = gitRepo({ 'a.py': 'A = 1\n' });
    const run = await runCli(args(server.url), { cwd: repo, stdin: "/test echo TESTS-BROKE; exit 3\n/test\n" });
    expect(run.code).toBe(1);
    const requests = server.chatRequests('m');
    expect(requests).toHaveLength(1);
    expect(bodyText(requests[0]!)).toContain('The test command `echo TESTS-BROKE; exit 3` failed');
    expect(bodyText(requests[0]!)).toContain('TESTS-BROKE');
    expect(infos(run)).toContain('No test command: give one (/test CMD) or set --test-cmd.');
  });

  it('/lint without files checks the files changed since HEAD; /lint FILE checks that one', async () => {
    server = await startFakeOpenAI({ fallback: textReply('I see.') });
    const repo = gitRepo({ 'good.py': 'X = 1\n', 'bad.py': 'Y = 1\n' });
    writeFileSync(join(repo, 'bad.py'), 'def broken(:\n    pass\n');
    const run = await runCli(args(server.url), { cwd: repo, stdin: '/lint good.py\n/lint\n' });
    expect(infos(run)).toContain('Syntax check passed (1 file;');
    const requests = server.chatRequests('m');
    expect(requests).toHaveLength(1);
    expect(bodyText(requests[0]!)).toContain('Lint failed');
    expect(bodyText(requests[0]!)).toContain('bad.py');
  });
});

describe('one-shot --lint, --test and --commit', () => {
  it('exit 0 when they pass, 3 when lint or tests fail, 2 without a test command; no model request', async () => {
    const repo = gitRepo({ 'ok.py': 'X = 1\n', 'bad.py': 'Y = 1\n' });
    const url = 'http://127.0.0.1:9/v1';
    expect((await runCli(args(url, '--lint', 'ok.py'), { cwd: repo })).code).toBe(0);
    writeFileSync(join(repo, 'bad.py'), 'def broken(:\n');
    const lint = await runCli(args(url, '--lint'), { cwd: repo });
    expect(lint.code).toBe(3);
    expect(lint.events().at(-1)).toMatchObject({ type: 'result', status: 'reflection_limit' });
    expect(lint.events().some((e) => e.type === 'lint' && e.ok === false && /bad\.py/.test(e.output))).toBe(true);
    expect((await runCli(args(url, '--test', '--test-cmd', 'true'), { cwd: repo })).code).toBe(0);
    expect((await runCli(args(url, '--test', '--test-cmd', 'exit 1'), { cwd: repo })).code).toBe(3);
    expect((await runCli(args(url, '--test'), { cwd: repo })).code).toBe(2);
  });

  it('--commit commits the changed tracked files with the weak model message and leaves untracked files', async () => {
    server = await startFakeOpenAI({ replies: { w: [textReply('fix: make X two')] } });
    const repo = gitRepo({ 'a.py': 'X = 1\n' });
    writeFileSync(join(repo, 'a.py'), 'X = 2\n');
    writeFileSync(join(repo, 'build.pyc'), 'junk');
    const run = await runCli(args(server.url, '--commit'), { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('fix: make X two');
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('a.py');
    expect(git(repo, 'status', '--short').trim()).toBe('?? build.pyc');
    expect(server.chatRequests('m')).toHaveLength(0);
    // only the untracked file is left: nobody here could approve it
    const untrackedOnly = await runCli(args(server.url, '--commit'), { cwd: repo });
    expect(untrackedOnly.code).toBe(4);
    expect(commitCount(repo)).toBe(2);
  });
});

describe('/commit', () => {
  it('leaves an untracked build file uncommitted unless approved (--yes-always approves)', async () => {
    server = await startFakeOpenAI({ fallback: textReply('chore: update') });
    const repo = gitRepo({ 'a.py': 'X = 1\n' });
    mkdirSync(join(repo, '__pycache__'));
    writeFileSync(join(repo, '__pycache__', 'a.cpython-311.pyc'), 'bytecode');
    writeFileSync(join(repo, 'a.py'), 'X = 2\n');
    const headless = await runCli(args(server.url), { cwd: repo, stdin: '/commit\n' });
    expect(headless.code, headless.stderr).toBe(0);
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('a.py');
    expect(git(repo, 'status', '--short').trim()).toBe('?? __pycache__/');
    expect(infos(headless)).toContain('Left untracked: __pycache__/a.cpython-311.pyc');

    writeFileSync(join(repo, 'notes.txt'), 'mine\n');
    const approved = await runCli(args(server.url, '--yes-always'), { cwd: repo, stdin: '/commit add the notes\n' });
    expect(approved.code, approved.stderr).toBe(0);
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(['__pycache__/a.cpython-311.pyc', 'notes.txt']);
    expect(git(repo, 'status', '--short').trim()).toBe('');
  });

  it('a failing server: one attempt with the weak model, one with the main model, then a message that says it is a fallback', async () => {
    server = await startFakeOpenAI({ fallback: errorReply(500, 'down') });
    const repo = gitRepo({ 'a.py': 'X = 1\n' });
    writeFileSync(join(repo, 'a.py'), 'X = 2\n');
    const run = await runCli(args(server.url), { cwd: repo, stdin: '/commit\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(server.chatRequests().map((r) => r.model)).toEqual(['w', 'm']);
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('chore: update a.py (fallback message: no model answered)');
  });
});

describe('chat modes', () => {
  it('context mode: the model names files and tandem offers them; nothing is edited', async () => {
    const reply = `You need lib/helper.py for this.\n\n${searchReplace('app.py', 'A = 1\n', 'A = 2\n')}`;
    server = await startFakeOpenAI({ replies: [textReply(reply), textReply('ok')] });
    const repo = gitRepo({ 'app.py': 'A = 1\n', 'lib/helper.py': 'HELPER = 1\n' });
    const run = await runCli(args(server.url, '--yes-always', '--chat-mode', 'context'), { cwd: repo, stdin: 'where does the helper go?\n/chat-mode code\n/ls\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.events().find((e) => e.type === 'user')).toMatchObject({ mode: 'context' });
    expect(bodyText(server.chatRequests()[0]!)).toContain('name the files that would need to be edited');
    expect(readFileSync(join(repo, 'app.py'), 'utf8')).toBe('A = 1\n');
    expect(commitCount(repo)).toBe(1);
    expect(infos(run)).toMatch(/Files in the chat:\n(  \S+\n)*  lib\/helper\.py/);
    expect(infos(run)).toContain('Switched to code mode');
  });

  it('/chat-mode lists the modes and refuses an unknown one', async () => {
    const repo = gitRepo({ 'a.py': 'A\n' });
    const run = await runCli(args('http://127.0.0.1:9/v1'), { cwd: repo, stdin: '/chat-mode\n/chat-mode bogus\n/chat-mode ask\n' });
    expect(run.code).toBe(1);
    expect(infos(run)).toMatch(/Chat mode: code\n {4}ask .*\n {2}\* code .*\n {4}architect .*\n {4}context /);
    expect(infos(run)).toContain('No chat mode "bogus"');
    expect(infos(run)).toContain('Switched to ask mode');
  });
});

describe('/help QUESTION', () => {
  it("asks the main model with tandem's documentation, outside the chat history", async () => {
    server = await startFakeOpenAI({ fallback: textReply('Use /save FILE.') });
    const repo = gitRepo({ 'a.py': 'A\n' });
    const run = await runCli(args(server.url), { cwd: repo, stdin: '/help how do I keep my file list?\n/help save\nnext request\n/help subtree?\n' });
    expect(run.code, run.stderr).toBe(0);
    const [help, next] = server.chatRequests('m');
    const body = bodyText(help!);
    expect(body).toContain('Coming from Aider');
    expect(body).toContain('/save: save the chat files');
    expect(body).toContain('how do I keep my file list?');
    expect(infos(run)).toContain('Use /save FILE.');
    expect(infos(run)).toContain('Usage: /save FILE');
    expect(bodyText(next!)).not.toContain('how do I keep my file list?');
    expect(bodyText(server.chatRequests('m')[2]!)).toContain('"content":"subtree?"');
  });
});

describe('history files and attribution', () => {
  it('--chat-history-file moves the transcript; tandem commits carry the chosen credit', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('a.py', 'X = 1\n', 'X = 2\n'))], w: [textReply('feat: two')] } });
    const repo = gitRepo({ 'a.py': 'X = 1\n' });
    const run = await runCli(
      args(server.url, '--chat-history-file', 'logs/chat.md', '--attribute-author', '--no-attribute-committer', '--attribute-co-authored-by', '--message', 'make it two', 'a.py'),
      { cwd: repo },
    );
    expect(run.code, run.stdout).toBe(0);
    expect(readFileSync(join(repo, 'logs/chat.md'), 'utf8')).toContain('make it two');
    expect(existsSync(join(repo, '.tandem', 'chat.history.md'))).toBe(false);
    const [author, committer, body] = git(repo, 'log', '-1', '--format=%an%n%cn%n%b').split('\n');
    expect(author).toBe('Test User (tandem)');
    expect(committer).toBe('Test User');
    expect(body).toContain('Tandem-Commit: yes');
    expect(git(repo, 'log', '-1', '--format=%(trailers:key=Co-authored-by,valueonly)').trim()).toBe('tandem (m) <tandem@localhost>');
    // /undo still knows the commit as tandem's
    const undo = await runCli(args(server.url), { cwd: repo, stdin: '/undo\n' });
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(join(repo, 'a.py'), 'utf8')).toBe('X = 1\n');
  });
});

describe('a repository cannot choose where tandem appends text', () => {
  it("ignores a repository's chat-history-file aimed at a hook; a passing auto-test says so in one line", async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply(`Run $(touch pwned) now.\n\n${searchReplace('a.py', 'X = 1\n', 'X = 2\n')}`)], w: [textReply('feat: two')] } });
    const hook = '#!/bin/sh\nexit 0\n';
    const repo = gitRepo({ '.tandem.conf.yml': 'chat-history-file: .husky/pre-commit\ninput-history-file: .envrc\n', '.husky/pre-commit': hook, 'a.py': 'X = 1\n' });
    const run = await runCli(['--base-url', server.url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--auto-test', '--test-cmd', 'true', '--message', 'two', 'a.py'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(repo, 'a.py'), 'utf8')).toBe('X = 2\n');
    expect(readFileSync(join(repo, '.husky/pre-commit'), 'utf8')).toBe(hook);
    expect(readFileSync(join(repo, '.tandem', 'chat.history.md'), 'utf8')).toContain('$(touch pwned)');
    expect(run.stderr).toContain("chat-history-file: ignored; only your own config or flags can set chat-history-file");
    expect(run.stderr.match(/^Tests passed\.$/gm)).toHaveLength(1);
  });
});

describe('first-run fixes', () => {
  it('no API key for a hosted server: one line, exit 1, no request; a local server needs none', async () => {
    const repo = gitRepo({ 'a.py': 'A\n' });
    const run = await runCli(['--base-url', 'https://api.example.com/v1', '--model', 'm', '--map-tokens', '0', '--message', 'hi'], { cwd: repo });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain('no API key for https://api.example.com/v1: set OPENAI_API_KEY');
    server = await startFakeOpenAI({ fallback: textReply('Hello.') });
    const local = await runCli(['--base-url', server.url, '--model', 'm', '--map-tokens', '0', '--message', 'hi'], { cwd: repo });
    expect(local.code, local.stderr).toBe(0);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("--trust-repo-settings approves the repository's settings as a yes would; no repository file can give it", async () => {
    const repo = gitRepo({ '.tandem.conf.yml': 'test-cmd: echo REPO-TESTS-RAN\ntrust-repo-settings: true\n', '.env': 'TANDEM_TRUST_REPO_SETTINGS=1\n', 'a.py': 'A\n' });
    const home = join(tempDir(), 'home');
    mkdirSync(home);
    const url = 'http://127.0.0.1:9/v1';
    const before = await runCli(args(url, '--test'), { cwd: repo, home });
    expect(before.code).toBe(4);
    expect(before.stderr).toContain('tandem --trust-repo-settings');
    const trust = await runCli(['--trust-repo-settings'], { cwd: repo, home });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stderr).toContain('Approved: The repository\'s');
    expect(trust.stderr).toContain('sets test-cmd to `echo REPO-TESTS-RAN`');
    const after = await runCli(args(url, '--test'), { cwd: repo, home });
    expect(after.code, after.stderr).toBe(0);
    expect(infos(after)).toContain('REPO-TESTS-RAN');
    // a changed command is a new question
    writeFileSync(join(repo, '.tandem.conf.yml'), 'test-cmd: echo OTHER\n');
    expect((await runCli(args(url, '--test'), { cwd: repo, home })).code).toBe(4);
  });
});
