// Issue 4 through the real CLI: syntax, lint and test failures go back to the model; the limit holds;
// the user's work gets its own commit; /undo is guarded; suggested commands never run headless.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli } from '../support/cli.js';
import { searchReplace } from '../support/replies.js';
import { commitCount, git, gitRepo, read, statusShort, writeFiles } from '../support/temp-repo.js';

const block = searchReplace;

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(replies: string[], files: Record<string, string>, args: string[], options: { dirty?: Record<string, string>; spawned?: boolean } = {}) {
  server = await startFakeOpenAI({ replies: { m: replies.map((r) => textReply(r)) }, fallback: textReply('fix: adjust code') });
  const repo = gitRepo(files);
  if (options.dirty) writeFiles(repo, options.dirty);
  const result = await (options.spawned ? runCli : runCliInProcess)(
    ['--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', ...args],
    { cwd: repo },
  );
  return { repo, result, requests: server.chatRequests('m') };
}

const lastUserMessage = (request: { body: any }): string => request.body.messages.at(-1).content as string;

describe('syntax errors go back to the model', () => {
  it('for Python: names the file and line with context, then the fix applies', async () => {
    const source = 'def add(a, b):\n    return a + b\n';
    const broken = block('calc.py', 'def add(a, b):\n', 'def add(a, b)\n');
    const fixed = block('calc.py', 'def add(a, b)\n', 'def add(a, b):\n');
    const { repo, result, requests } = await run([broken, fixed], { 'calc.py': source }, ['-m', 'edit', '--yes-always', 'calc.py']);

    expect(result.code, result.stderr).toBe(0);
    expect(requests).toHaveLength(2);
    const reflection = lastUserMessage(requests[1]!);
    expect(reflection).toMatch(/calc\.py:1/);
    expect(reflection).toContain('def add(a, b)');
    expect(read(repo, 'calc.py')).toBe(source);
    expect(statusShort(repo)).toBe('');
  });

  it('for TypeScript: names the file and line with context, then the fix applies', async () => {
    const source = 'export function twice(n: number): number {\n  return n * 2;\n}\n';
    const broken = block('twice.ts', '  return n * 2;\n', '  return (n * 2;\n');
    const fixed = block('twice.ts', '  return (n * 2;\n', '  return n * 2;\n');
    const { repo, result, requests } = await run([broken, fixed], { 'twice.ts': source }, ['-m', 'edit', '--yes-always', 'twice.ts']);

    expect(result.code, result.stderr).toBe(0);
    const reflection = lastUserMessage(requests[1]!);
    expect(reflection).toMatch(/twice\.ts:2/);
    expect(reflection).toContain('return (n * 2;');
    expect(read(repo, 'twice.ts')).toBe(source);
    expect(statusShort(repo)).toBe('');
  });
});

describe('tests and the reflection limit', () => {
  it('sends failing test output to the model and ends green after the fix', async () => {
    const files = { '.gitignore': '__pycache__/\n', 'calc.py': 'def add(a, b):\n    return a + b\n', 'check.sh': 'python3 -B -c "from calc import add; assert add(2, 2) == 4, \'add is broken\'"\n' };
    const breaking = block('calc.py', '    return a + b\n', '    return a - b\n');
    const fixing = block('calc.py', '    return a - b\n', '    return a + b\n');
    const { repo, result, requests } = await run([breaking, fixing], files, ['-m', 'edit', '--yes-always', '--auto-test', '--test-cmd', 'sh check.sh', 'calc.py']);

    expect(result.code, result.stderr).toBe(0);
    expect(requests.map(lastUserMessage), result.stderr).toHaveLength(2);
    expect(lastUserMessage(requests[1]!)).toContain('add is broken');
    expect(read(repo, 'calc.py')).toContain('return a + b');
    expect(statusShort(repo)).toBe('');
  });

  it('stops after 1 + 3 requests when nothing matches, leaving the file and history alone, exit 3', async () => {
    const source = 'x = 1\n';
    const never = block('x.py', 'y = 2\n', 'y = 3\n');
    const { repo, result, requests } = await run([never, never, never, never, never], { 'x.py': source }, ['-m', 'edit', '--yes-always', 'x.py']);

    expect(result.code).toBe(3);
    expect(requests).toHaveLength(4);
    expect(read(repo, 'x.py')).toBe(source);
    expect(commitCount(repo)).toBe(1);
  });
});

describe('git', () => {
  it("commits the user's pending edit on its own before tandem's change", async () => {
    const edit = block('a.py', 'b = 2\n', 'b = 20\n');
    const { repo, result } = await run([edit], { 'a.py': 'a = 1\nb = 2\n' }, ['-m', 'edit', '--yes-always', 'a.py'], {
      dirty: { 'a.py': 'a = 10\nb = 2\n' },
    });

    expect(result.code, result.stderr).toBe(0);
    expect(commitCount(repo)).toBe(3);
    const userCommit = git(repo, 'show', '--format=%B', 'HEAD~1');
    const tandemCommit = git(repo, 'show', '--format=%B', 'HEAD');
    expect(userCommit).toContain('+a = 10');
    expect(userCommit).not.toContain('b = 20');
    expect(userCommit).not.toContain('Tandem-Commit');
    expect(tandemCommit).toContain('+b = 20');
    expect(tandemCommit).not.toContain('+a = 10');
    expect(tandemCommit).toContain('Tandem-Commit: yes');
  });

  it("/undo reverts tandem's last commit and keeps the user's other work", async () => {
    const edit = block('a.py', 'a = 1\n', 'a = 2\n');
    const { repo, result } = await run([edit], { 'a.py': 'a = 1\n', 'notes.txt': 'mine\n' }, ['-m', 'edit', '--yes-always', 'a.py']);
    expect(result.code, result.stderr).toBe(0);
    writeFiles(repo, { 'notes.txt': 'mine, edited\n' });

    const undo = await runCliInProcess(['-m', '/undo', '--map-tokens', '0'], { cwd: repo });

    expect(undo.code, undo.stderr).toBe(0);
    expect(read(repo, 'a.py')).toBe('a = 1\n');
    expect(read(repo, 'notes.txt')).toBe('mine, edited\n');
    expect(commitCount(repo)).toBe(1);
  });

  it('/undo leaves a commit tandem did not make alone and says why', async () => {
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    writeFiles(repo, { 'a.py': 'a = 2\n' });
    git(repo, 'commit', '-qam', 'user change');

    const undo = await runCliInProcess(['-m', '/undo', '--map-tokens', '0'], { cwd: repo });

    expect(undo.code).toBe(1);
    expect(undo.stdout + undo.stderr).toMatch(/not made by tandem/);
    expect(commitCount(repo)).toBe(2);
    expect(read(repo, 'a.py')).toBe('a = 2\n');
  });
});

describe('commands', () => {
  it('does not run a suggested shell command in headless mode, and says so with exit 4', async () => {
    const reply = "Run this to see it:\n\n```bash\ntouch ran-it\n```\n";
    const { repo, result } = await run([reply], { 'a.py': 'a = 1\n' }, ['-m', 'what now?', '--yes-always', 'a.py']);

    expect(result.code, result.stderr).toBe(4);
    expect(existsSync(join(repo, 'ran-it'))).toBe(false);
    expect(result.stderr).toContain('touch ran-it');
  });

  it('kills a test command that outlives its timeout, together with its child', async () => {
    const test = 'sleep 60 & echo $! > child.pid; wait';
    const edit = block('a.py', 'a = 1\n', 'a = 2\n');
    const { repo, result } = await run([edit, 'I cannot fix a hanging test.'], { 'a.py': 'a = 1\n' }, [
      '-m', 'edit', '--yes-always', '--auto-test', '--test-cmd', test, '--command-timeout', '1', 'a.py',
    ], { spawned: true });

    expect(result.code, result.stderr).toBe(0);
    const pid = Number(readFileSync(join(repo, 'child.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(false);
  });
});

/** Running, as opposed to gone or a zombie waiting for its new parent to reap it. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}
