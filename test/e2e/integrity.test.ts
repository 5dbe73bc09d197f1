// Issue 12 through the real CLI with real faults: a held index.lock, an immutable folder, a merge in
// progress, ignored tracked files, skip-worktree; errors end the request and the chat goes on.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli } from '../support/cli.js';
import { isRunning, pidWritten, signalProcess } from '../support/pid-file.js';
import { searchReplace } from '../support/replies.js';
import { commitCount, git, gitRepo, read, statusShort, tempDir, writeFiles } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const args = (url: string): string[] => ['--no-stream', '--yes-always', '--base-url', url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0'];

function oneLine(text: string): void {
  expect(text.trim().split('\n'), text).toHaveLength(1);
}

describe('errors end the request, not the chat', () => {
  it('a held index.lock fails the first request whole; the REPL runs the second, which lands', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\ny = 1\n' });
    const lock = join(repo, '.git', 'index.lock');
    writeFileSync(lock, '');
    server = await startFakeOpenAI({
      replies: {
        m: [
          textReply(searchReplace('app.py', 'x = 1\n', 'x = 2\n') + searchReplace('notes.md', '', 'new\n')),
          // The user clears the stale lock before the second request is answered.
          () => {
            rmSync(lock);
            return textReply(searchReplace('app.py', 'y = 1\n', 'y = 2\n'));
          },
        ],
        w: [textReply('change x'), textReply('change y')],
      },
    });

    const run = await runCliInProcess([...args(server.url), '--json', 'app.py'], { cwd: repo, stdin: 'change x\nchange y\n' });

    const events = run.events();
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toHaveLength(1);
    oneLine(errors[0]!.message);
    expect(errors[0]!.message).toMatch(/index\.lock/);
    expect(errors[0]!.message).toMatch(/the edits were undone, nothing was changed/);
    expect(errors[0]!.message).not.toMatch(/hint:|Another git process/);
    // The second request ran and landed; the first left nothing behind.
    expect(server.chatRequests('m')).toHaveLength(2);
    expect(read(repo, 'app.py')).toBe('x = 1\ny = 2\n');
    expect(existsSync(join(repo, 'notes.md'))).toBe(false);
    expect(statusShort(repo)).toBe('');
    expect(git(repo, 'log', '--format=%s')).toBe('change y\ninitial\n');
    // The model is told its first edits did not land.
    expect(JSON.stringify(server.chatRequests('m')[1]!.body)).toContain('None of the edits in your last reply were applied');
    const result = events.at(-1)!;
    expect(result).toMatchObject({ type: 'result', status: 'error', totals: { requests: 2, commits: 1 } });
    expect(run.code).toBe(1);
  });

  it('an immutable folder: exit 1 with one line, the tree exactly as before', async (ctx) => {
    const repo = gitRepo({ 'app.py': 'x = 1\n', 'locked/keep.txt': 'k\n' });
    try {
      execFileSync('chattr', ['+i', join(repo, 'locked')], { stdio: 'ignore' });
    } catch {
      ctx.skip();
    }
    try {
      server = await startFakeOpenAI({
        replies: { m: [textReply(searchReplace('app.py', 'x = 1\n', 'x = 2\n') + searchReplace('locked/new.py', '', 'pass\n'))], w: [textReply('change')] },
      });
      const run = await runCliInProcess(['-m', 'go', ...args(server.url), 'app.py', 'locked/new.py'], { cwd: repo });

      expect(run.code).toBe(1);
      const errorLines = run.stderr.split('\n').filter((line) => /error|could not/i.test(line));
      expect(errorLines, run.stderr).toHaveLength(1);
      expect(errorLines[0]).toMatch(/Could not write locked\/new\.py \(operation not permitted\); nothing was changed\.$/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(server.chatRequests('m')).toHaveLength(1);
      expect(read(repo, 'app.py')).toBe('x = 1\n');
      expect(statusShort(repo)).toBe('');
      expect(commitCount(repo)).toBe(1);
    } finally {
      execFileSync('chattr', ['-i', join(repo, 'locked')]);
    }
  });

  it('a session log that cannot be written is one warning; the request still lands', async () => {
    // Real faults that leave .tandem a plain folder (a symlink there would switch it off whole):
    // an immutable sessions folder and an immutable transcript, which even root cannot write.
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    const sessions = join(repo, '.tandem', 'sessions');
    const transcript = join(repo, '.tandem', 'chat.history.md');
    mkdirSync(sessions, { recursive: true });
    writeFileSync(transcript, '');
    execFileSync('chattr', ['+i', sessions, transcript]);
    try {
      server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('app.py', 'x = 1\n', 'x = 2\n'))], w: [textReply('change x')] } });

      const run = await runCliInProcess(['-m', 'go', '--json', ...args(server.url), 'app.py'], { cwd: repo });

      expect(run.code, run.stderr).toBe(0);
      const warnings = run.events().filter((e) => e.type === 'warning').map((e) => e.message as string);
      expect(warnings.filter((w) => w.includes('session log'))).toHaveLength(1);
      expect(warnings.filter((w) => w.includes('transcript'))).toHaveLength(1);
      expect(warnings.find((w) => w.includes('transcript'))).toMatch(/operation not permitted/);
      expect(read(repo, 'app.py')).toBe('x = 2\n');
      expect(statusShort(repo)).toBe('');
    } finally {
      execFileSync('chattr', ['-i', sessions, transcript]);
    }
  });

});

describe('sessions lose nothing', () => {
  it('a run killed while waiting for the reply leaves a session that --resume shows the request from', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    server = await startFakeOpenAI({ replies: { m: [{ type: 'hang' }, textReply('Picking up where we left off.')] } });
    let pid = 0;
    const running = runCli(['-m', 'rename x to count', ...args(server.url), 'app.py'], { cwd: repo, onSpawn: (p) => (pid = p) });
    await server.waitForChatRequests(1);
    signalProcess(pid, 'SIGKILL');
    await running;

    const resumed = await runCliInProcess(['--resume', '-m', 'go on', ...args(server.url)], { cwd: repo });

    expect(resumed.code, resumed.stderr).toBe(0);
    const sent = (server.chatRequests('m')[1]!.body.messages as Array<{ role: string; content: string }>).map((m) => `${m.role}: ${m.content}`).join('\n');
    expect(sent).toContain('user: rename x to count');
    expect(sent).toContain('assistant: [no reply: the request failed or tandem stopped before the reply arrived]');
  });
});

describe('one writer per repository', () => {
  it('waits for a live lock holder with a visible message, then gives up in one line with exit 1', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    mkdirSync(join(repo, '.tandem'));
    // Held by a live process on this machine: this test runner.
    writeFileSync(join(repo, '.tandem', 'write.lock'), JSON.stringify({ pid: process.pid, host: hostname(), since: 'now' }));
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('app.py', 'x = 1\n', 'x = 2\n'))], w: [textReply('change x')] } });

    const run = await runCli(['-m', 'go', '--json', '--lock-timeout', '1', ...args(server.url), 'app.py'], { cwd: repo });

    expect(run.code).toBe(1);
    const events = run.events();
    expect(events.find((e) => e.type === 'info' && String(e.message).startsWith('Waiting for'))?.message).toBe(`Waiting for tandem process ${process.pid}, which is writing to this repository...`);
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe(`Another tandem process ${process.pid} kept this repository locked for 1 s (.tandem/write.lock); nothing was written. Try again when it has finished; if no tandem is running there, delete .tandem/write.lock to take the lock over.`);
    expect(read(repo, 'app.py')).toBe('x = 1\n');
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'error', totals: { requests: 1 } });
  });

  it('takes over a lock left by a process that is gone', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    mkdirSync(join(repo, '.tandem'));
    const gone = execFileSync('sh', ['-c', 'sh -c "echo \\$\\$" '], { encoding: 'utf8' }).trim();
    writeFileSync(join(repo, '.tandem', 'write.lock'), JSON.stringify({ pid: Number(gone), host: hostname(), since: 'then' }));
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('app.py', 'x = 1\n', 'x = 2\n'))], w: [textReply('change x')] } });

    const run = await runCliInProcess(['-m', 'go', ...args(server.url), 'app.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'app.py')).toBe('x = 2\n');
    expect(existsSync(join(repo, '.tandem', 'write.lock'))).toBe(false);
  });
});

describe('git as it really is', () => {
  function conflictedRepo(): string {
    const repo = gitRepo({ 'conflict.txt': 'base\n', 'other.py': 'v = 1\n' });
    const main = git(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
    git(repo, 'checkout', '-q', '-b', 'side');
    writeFiles(repo, { 'conflict.txt': 'side\n' });
    git(repo, 'commit', '-qam', 'side');
    git(repo, 'checkout', '-q', main);
    writeFiles(repo, { 'conflict.txt': 'main\n' });
    git(repo, 'commit', '-qam', 'main');
    try {
      git(repo, 'merge', 'side');
    } catch {
      // the conflict is the point
    }
    expect(statusShort(repo)).toContain('UU conflict.txt');
    return repo;
  }

  it('during a merge: the conflicted file keeps UU, tandem leaves its edit uncommitted and says so', async () => {
    const repo = conflictedRepo();
    const head = git(repo, 'rev-parse', 'HEAD');
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('other.py', 'v = 1\n', 'v = 2\n'))], w: [textReply('change v')] } });

    // The user's own pending work on the edited file stays theirs: no "wip" commit in the middle of a merge.
    writeFiles(repo, { 'other.py': 'v = 1\n# mine\n' });
    const run = await runCliInProcess(['-m', 'go', '--json', ...args(server.url), 'other.py', 'conflict.txt'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    expect(statusShort(repo)).toContain('UU conflict.txt');
    expect(statusShort(repo)).toContain(' M other.py');
    expect(read(repo, 'other.py')).toBe('v = 2\n# mine\n');
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
    const warning = run.events().find((e) => e.type === 'warning' && String(e.message).includes('uncommitted'));
    expect(warning?.message).toBe('Left the edits to other.py uncommitted: a merge is in progress, and git cannot commit part of it.');
  });

  it('commits tracked files that a new .gitignore rule matches', async () => {
    const repo = gitRepo({ '.gitignore': 'node_modules/\n', 'build/out.txt': 'old\n' });
    const reply = searchReplace('.gitignore', 'node_modules/\n', 'node_modules/\nbuild/\n') + searchReplace('build/out.txt', 'old\n', 'new\n');
    server = await startFakeOpenAI({ replies: { m: [textReply(reply)], w: [textReply('ignore build')] } });

    const run = await runCliInProcess(['-m', 'go', ...args(server.url), '.gitignore', 'build/out.txt'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    expect(statusShort(repo)).toBe('');
    expect(git(repo, 'show', 'HEAD:build/out.txt')).toBe('new\n');
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('ignore build\n');
  });

  it('refuses to edit a skip-worktree file and tells the model why', async () => {
    const repo = gitRepo({ 'config.py': 'debug = False\n', 'app.py': 'x = 1\n' });
    git(repo, 'update-index', '--skip-worktree', 'config.py');
    server = await startFakeOpenAI({
      replies: { m: [textReply(searchReplace('config.py', 'debug = False\n', 'debug = True\n')), textReply('Understood, I will leave it.')] },
    });

    const run = await runCliInProcess(['-m', 'go', '--json', ...args(server.url), 'config.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'config.py')).toBe('debug = False\n');
    expect(run.events().find((e) => e.type === 'edit')).toMatchObject({ path: 'config.py', status: 'failed' });
    expect(JSON.stringify(server.chatRequests('m')[1]!.body)).toContain('config.py is marked skip-worktree');
  });
});

describe('exit codes scripts can trust', () => {
  it('several requests on stdin exit with the most severe outcome, not the last one', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    server = await startFakeOpenAI({ replies: { m: [{ type: 'error', status: 401, message: 'bad key' }, textReply('Fine.')] } });

    const run = await runCli([...args(server.url), '--max-retries', '0', 'app.py'], { cwd: repo, stdin: 'first\nsecond\n' });

    expect(server.chatRequests('m')).toHaveLength(2);
    expect(run.code).toBe(1);
  });

  it('a one-shot run with the repo map on exits by itself once its result is out', async () => {
    const repo = gitRepo({ 'app.py': 'def f():\n    return 1\n', 'lib.py': 'from app import f\n\ndef g():\n    return f()\n' });
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('app.py', '    return 1\n', '    return 2\n'))], w: [textReply('change f')] } });
    const mapArgs = args(server.url).filter((a) => a !== '--map-tokens' && a !== '0');

    // The guard is this test's timeout: a worker or timer left alive would keep the process running.
    const run = await runCli(['-m', 'go', '--json', '--map-tokens', '1024', ...mapArgs, 'app.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    expect(run.events().at(-1)).toMatchObject({ type: 'result', status: 'completed' });
    expect(JSON.stringify(server.chatRequests('m')[0]!.body)).toContain('lib.py');
  }, 60_000);

  it('a failure before the session starts still ends the JSON stream with a result and its totals', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    const run = await runCli(['--resume', 'nope', '--json', '-m', 'x', '--map-tokens', '0'], { cwd: repo });
    expect(run.code).toBe(2);
    expect(run.events().at(-1)).toMatchObject({ type: 'result', status: 'error', totals: { requests: 0, commits: 0 } });
  });

  it('an out-of-range timeout is a usage error naming the option', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    const run = await runCli(['--request-timeout', '3000000', '-m', 'x'], { cwd: repo });
    expect(run.code).toBe(2);
    oneLine(run.stderr);
    expect(run.stderr).toMatch(/--request-timeout.*from 1 to 2147483/);
  });
});

describe('commands stop when asked', () => {
  /** Waits (bounded, as a guard only) for a killed process to be gone: a group kill ends it within moments. */
  async function goneSoon(pid: number): Promise<boolean> {
    for (let i = 0; i < 50 && isRunning(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    return !isRunning(pid);
  }

  it('SIGINT during a 30 s lint ends the run with exit 130 and leaves no process behind', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    const side = tempDir('tandem-lint-');
    writeFileSync(join(side, 'lint.sh'), `sleep 30 &\necho $! > ${join(side, 'lint.pid')}\nwait\n`);
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('app.py', 'x = 1\n', 'x = 2\n'))], w: [textReply('change x')] } });
    let pid = 0;
    const running = runCli(['-m', 'go', '--json', '--lint-cmd', `sh ${join(side, 'lint.sh')}`, ...args(server.url), 'app.py'], { cwd: repo, onSpawn: (p) => (pid = p) });
    const sleeper = await pidWritten(side, 'lint.pid');

    signalProcess(pid, 'SIGINT');
    const run = await running;

    expect(run.code, run.stderr).toBe(130);
    expect(run.events().at(-1)).toMatchObject({ type: 'result', status: 'interrupted' });
    expect(await goneSoon(sleeper)).toBe(true);
    // The edit had landed and been committed before the lint started: nothing half-done.
    expect(read(repo, 'app.py')).toBe('x = 2\n');
    expect(statusShort(repo)).toBe('');
  }, 20_000);

  it('Ctrl-C stops a /run command and its group; the REPL goes on to the next line', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    const side = tempDir('tandem-run-');
    writeFileSync(join(side, 'long.sh'), `echo started\nsleep 30 &\necho $! > ${join(side, 'run.pid')}\nwait\n`);
    let pid = 0;
    const running = runCli(['--map-tokens', '0', 'app.py'], { cwd: repo, stdin: `/run sh ${join(side, 'long.sh')}\n/ls\n`, onSpawn: (p) => (pid = p) });
    const sleeper = await pidWritten(side, 'run.pid');

    signalProcess(pid, 'SIGINT');
    const run = await running;

    expect(await goneSoon(sleeper)).toBe(true);
    expect(run.stdout).toContain('started');
    expect(run.stdout).toContain('(stopped)');
    // The next line ran: the chat survived the interrupted command.
    expect(run.stdout).toContain('Files in the chat:');
  }, 20_000);
});
