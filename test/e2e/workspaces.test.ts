// Where tandem runs and what the git commands do: a sub-folder, a repository without commits, a detached
// HEAD, no git at all, --dry-run, and /diff, /commit, /git, /run, /test, /lint.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { searchReplace } from '../support/replies.js';
import { commitCount, git, gitRepo, read, statusShort, tempDir, writeFiles } from '../support/temp-repo.js';

const block = searchReplace;

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(...replies: string[]): Promise<string[]> {
  server = await startFakeOpenAI({ replies: { m: replies.map((r) => textReply(r)) }, fallback: textReply('chore: edit') });
  return ['--no-stream', '--yes-always', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0'];
}

describe('where tandem runs', () => {
  it('works from a sub-folder, with paths relative to it', async () => {
    const args = await serve(block('src/app.py', 'x = 1\n', 'x = 2\n'));
    const repo = gitRepo({ 'src/app.py': 'x = 1\n' });
    const run = await runCli(['-m', 'edit', ...args, 'app.py'], { cwd: join(repo, 'src') });
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'src/app.py')).toBe('x = 2\n');
    expect(statusShort(repo)).toBe('');
  });

  it('works in a repository with no commits yet', async () => {
    const args = await serve(block('a.py', 'a = 1\n', 'a = 2\n'));
    const repo = gitRepo({ 'a.py': 'a = 1\n' }, { commit: false });
    const run = await runCli(['-m', 'edit', ...args, 'a.py'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'a.py')).toBe('a = 2\n');
    expect(commitCount(repo)).toBe(1);
  });

  it('works on a detached HEAD', async () => {
    const args = await serve(block('a.py', 'a = 1\n', 'a = 2\n'));
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    git(repo, 'checkout', '-q', '--detach');
    const run = await runCli(['-m', 'edit', ...args, 'a.py'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(commitCount(repo)).toBe(2);
  });

  it('works without git, and says it will not commit', async () => {
    const args = await serve(block('a.py', 'a = 1\n', 'a = 2\n'));
    const dir = mkdtempSync(join(tmpdir(), 'tandem-nogit-'));
    writeFileSync(join(dir, 'a.py'), 'a = 1\n');
    const run = await runCli(['-m', 'edit', ...args, 'a.py'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Not a git repository/);
    expect(read(dir, 'a.py')).toBe('a = 2\n');
  });

  it('--dry-run shows the diff and writes nothing', async () => {
    const args = await serve(block('a.py', 'a = 1\n', 'a = 2\n'));
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    const run = await runCli(['-m', 'edit', '--dry-run', ...args, 'a.py'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('-a = 1\n+a = 2');
    expect(read(repo, 'a.py')).toBe('a = 1\n');
    expect(commitCount(repo)).toBe(1);
  });

  it('refuses a path that leaves the repository even with --yes-always', async () => {
    const args = await serve(block('../escape.py', '', 'boom\n'));
    const root = tempDir();
    const repo = join(root, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    writeFiles(repo, { 'a.py': 'a = 1\n' });
    const run = await runCli(['-m', 'edit', '--max-reflections', '0', ...args, 'a.py'], { cwd: repo });
    expect(run.code).toBe(3);
    expect(() => read(root, 'escape.py')).toThrow();
  });
});

describe('git and shell commands', () => {
  it('/diff shows what the last request changed', async () => {
    const args = await serve(block('a.py', 'a = 1\n', 'a = 2\n'));
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    const run = await runCli([...args, 'a.py'], { cwd: repo, stdin: 'change a\n/diff\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('+a = 2');
  });

  it('/commit commits pending work and /git runs git', async () => {
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    writeFiles(repo, { 'a.py': 'a = 5\n' });
    const run = await runCli(['--map-tokens', '0'], { cwd: repo, stdin: '/commit my own change\n/git log --format=%s -1\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('my own change');
    expect(statusShort(repo)).toBe('');
  });

  it('/run shows output; /test and /lint send failures to the model', async () => {
    const args = await serve('I see the failures.', 'I see the lint failure.');
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    const run = await runCli([...args, '--test-cmd', 'echo TESTS-BROKEN; exit 1', '--lint-cmd', 'sh -c "echo LINT-BROKEN; exit 1" --', 'a.py'], {
      cwd: repo,
      stdin: '/run echo hello-from-run\n/test\n/lint\n',
    });
    expect(run.stdout).toContain('hello-from-run');
    const requests = server!.chatRequests('m');
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[0]!.body)).toContain('TESTS-BROKEN');
    expect(JSON.stringify(requests[1]!.body)).toContain('LINT-BROKEN');
  });
});
