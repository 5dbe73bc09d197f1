// Watch mode headless (`--watch-files --json`, no terminal) against the scripted server, with the real
// watcher in a real repository: one CLI run takes several triggers in turn. Each save burst with a new
// AI comment sends exactly one request quoting it (file and line); the edit lands, is committed and the
// comment is gone; AI? asks; comments there at start, tandem's own write, a non-comment EMAIL!, a
// string literal, a stash and a checkout of another branch send nothing (the server's count shows it);
// a trigger during a slow reply is queued and runs after it; SIGTERM ends the run with exit 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, CLI } from '../support/cli.js';
import { hangReply, startFakeOpenAI, textReply, type FakeOpenAIServer, type FakeStep } from '../support/fake-openai-server.js';
import { searchReplace } from '../support/replies.js';
import { commitCount, git, gitRepo, statusShort, tempDir } from '../support/temp-repo.js';

const WAIT_MS = 20000;

interface JsonRun {
  readonly events: Array<Record<string, any>>;
  waitFor(test: (events: Array<Record<string, any>>) => boolean, what: string): Promise<void>;
  readonly exited: Promise<number | null>;
  readonly child: ChildProcess;
  stderr(): string;
}

function startJsonRun(cwd: string, args: readonly string[]): JsonRun {
  const home = join(tempDir('tandem-home-'), 'home');
  mkdirSync(home, { recursive: true });
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: baseEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
  const events: Array<Record<string, any>> = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line) as Record<string, any>);
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    events,
    child,
    exited,
    stderr: () => stderr,
    async waitFor(test, what) {
      const deadline = Date.now() + WAIT_MS;
      while (!test(events)) {
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`timed out waiting for ${what}; events:\n${events.map((e) => JSON.stringify(e)).join('\n')}\nstderr:\n${stderr}`);
        }
        // Woken by the next line of output, or checked again after a while.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 500);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
}

const results = (events: Array<Record<string, any>>): Array<Record<string, any>> => events.filter((e) => e.type === 'result');
/** The watch request in the n-th chat request (the chat files' text, sent in the same message, left out). */
const lastUserText = (server: FakeOpenAIServer, n: number): string => {
  const messages = server.chatRequests('m')[n]!.body.messages as Array<{ role: string; content: string }>;
  const text = messages.filter((m) => m.role === 'user').at(-1)!.content;
  const start = text.lastIndexOf('While tandem watched the files');
  expect(start).toBeGreaterThanOrEqual(0);
  return text.slice(start);
};

let server: FakeOpenAIServer | undefined;
let run: JsonRun | undefined;
afterEach(async () => {
  if (run && run.child.exitCode === null) run.child.kill('SIGKILL');
  await server?.close();
});

describe('watch mode, headless', () => {
  it('runs one request per new AI comment, and nothing for what the user did not write', async () => {
    const appStart = 'def add(a, b):\n    return a + b\n# left by a stranger AI!\n';
    const root = gitRepo({ 'app.py': appStart, 'util.js': 'function inc(x) {\n  return x + 1;\n}\n' });
    git(root, 'branch', 'other');
    git(root, 'checkout', '-q', 'other');
    writeFileSync(join(root, 'app.py'), `${appStart}# from the other branch AI!\n`);
    writeFileSync(join(root, 'branch.py'), '# do this from a branch AI!\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'other branch');
    git(root, 'checkout', '-q', '-');

    let release: () => void = () => {};
    const slow: FakeStep = () => new Promise<FakeStep>((resolve) => (release = () => resolve(textReply('Done slowly.'))));
    server = await startFakeOpenAI({
      replies: {
        m: [
          // tandem's own write adds an AI comment: it must not fire.
          textReply(
            searchReplace('app.py', 'def add(a, b):\n', 'def add(a, b):\n    """Add two numbers."""\n') +
              searchReplace('app.py', '# add a docstring AI!\n', '# written by the model AI!\n'),
          ),
          textReply(searchReplace('util.js', 'function inc(x) {\n  return x + 1;\n}\n// rename x to count AI!\n', 'function inc(count) {\n  return count + 1;\n}\n')),
          textReply('It returns the sum because add adds.'),
          slow,
          textReply('The queued one ran.'),
        ],
        w: [],
      },
      fallback: textReply('Update the code'),
    });
    run = startJsonRun(root, ['--json', '--watch-files', '--yes-always', '--base-url', server.url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0']);
    await run.waitFor((events) => events.some((e) => e.type === 'info' && String(e.message).startsWith('Watching the files')), 'watching');
    // The edit is committed (after tandem's commit of the user's own pending change, the comment).
    const committed = (path: string): void => {
      expect(statusShort(root)).toBe('');
      expect(git(root, 'log', '-1', '--format=%an', '--name-only')).toContain(path);
    };

    // An editor's save: a temp file renamed over the original, then written again: one burst, one request.
    const app = join(root, 'app.py');
    writeFileSync(`${app}.tmp`, `${appStart}# add a docstring AI!\n`);
    renameSync(`${app}.tmp`, app);
    appendFileSync(app, '');
    await run.waitFor((events) => results(events).length === 1, 'the first result');
    expect(server.chatRequests('m')).toHaveLength(1);
    const first = lastUserText(server, 0);
    expect(first).toContain('app.py, AI comment on line 4');
    expect(first).toContain('> 4 | # add a docstring AI!');
    expect(first).toContain('  3 | # left by a stranger AI!');
    // The stranger's comment shows among the lines around (it is in the file) but is not named as a request.
    expect(first).not.toContain('line 3,');
    const afterFirst = readFileSync(app, 'utf8');
    expect(afterFirst).toContain('"""Add two numbers."""');
    expect(afterFirst).not.toContain('add a docstring AI!');
    committed('app.py');
    expect(results(run.events)[0]!.status).toBe('completed');

    appendFileSync(join(root, 'util.js'), '// rename x to count AI!\n');
    await run.waitFor((events) => results(events).length === 2, 'the second result');
    expect(server.chatRequests('m')).toHaveLength(2);
    const second = lastUserText(server, 1);
    expect(second).toContain('util.js, AI comment on line 4');
    expect(second).toContain('// rename x to count AI!');
    expect(second).not.toContain('written by the model');
    expect(second).not.toContain('app.py');
    expect(readFileSync(join(root, 'util.js'), 'utf8')).toBe('function inc(count) {\n  return count + 1;\n}\n');
    committed('util.js');
    const commitsBeforeAsk = commitCount(root);

    // Saved with the question: a file whose only "AI" words are no AI comments (a string, EMAIL!, PAID!).
    writeFileSync(join(root, 'mail.py'), 'print("do it AI!")\nsend_EMAIL!\n# PAID!\n');
    appendFileSync(app, '# why does it return a sum? AI?\n');
    await run.waitFor((events) => results(events).length === 3, 'the ask result');
    expect(run.events.filter((e) => e.type === 'user').at(-1)!.mode).toBe('ask');
    const ask = lastUserText(server, 2);
    expect(ask).toContain('# why does it return a sum? AI?');
    expect(ask).not.toContain('mail.py');
    expect(ask).toMatch(/> \d \| # why does it return a sum\? AI\?/);
    expect(ask).not.toMatch(/> \d \| # written by the model/);
    expect(commitCount(root)).toBe(commitsBeforeAsk);

    // Not requests: a stash, and a checkout bringing AI comments in.
    git(root, 'stash', '-q', '--include-untracked');
    git(root, 'checkout', '-q', 'other');
    // The slow request: its comment goes in after all that, and a second trigger comes while it runs.
    appendFileSync(app, '# make add take any number of arguments AI!\n');
    await run.waitFor((events) => events.some((e) => e.type === 'user' && String(e.text).includes('make add take any number')), 'the slow request');
    await run.waitFor(() => server!.chatRequests('m').length === 4, 'the slow request at the server');
    appendFileSync(join(root, 'branch.py'), '# and this one after it AI!\n');
    await run.waitFor((events) => events.some((e) => e.type === 'info' && String(e.message).startsWith('queued: AI comment branch.py:2')), 'the queued trigger');
    expect(server.chatRequests('m')).toHaveLength(4);
    const slowText = lastUserText(server, 3);
    // What the checkout brought may show among the lines around, never as one of the user's (`>`).
    expect(slowText).toMatch(/> \d \| # make add take any number of arguments AI!/);
    expect(slowText).toContain('app.py, AI comment on line');
    expect(slowText).not.toMatch(/> \d \| # from the other branch/);
    expect(slowText).not.toContain('branch.py');
    release();
    await run.waitFor((events) => results(events).length === 5, 'the queued request');
    expect(server.chatRequests('m')).toHaveLength(5);
    const queuedIndex = run.events.findIndex((e) => e.type === 'user' && String(e.text).includes('and this one after it'));
    expect(queuedIndex).toBeGreaterThan(run.events.indexOf(results(run.events)[3]!));
    const queuedText = lastUserText(server, 4);
    expect(queuedText).toMatch(/> 2 \| # and this one after it AI!/);
    expect(queuedText).not.toMatch(/> 1 \| # do this from a branch/);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(server.chatRequests('m')).toHaveLength(5);
  });

  it('shows a file name from the repository escaped, and exits 130 when a signal interrupts a running request', async () => {
    const name = 'x\u001b[2Jy.py';
    const root = gitRepo({ [name]: 'x = 1\n' });
    server = await startFakeOpenAI({ replies: { m: [hangReply()] } });
    run = startJsonRun(root, ['--json', '--watch-files', '--base-url', server.url, '--api-key', 'k', '--model', 'm', '--map-tokens', '0']);
    await run.waitFor((events) => events.some((e) => e.type === 'info' && String(e.message).startsWith('Watching the files')), 'watching');
    appendFileSync(join(root, name), '# make x two AI!\n');
    await run.waitFor(() => server!.chatRequests('m').length === 1, 'the request at the server');
    const shown = run.events.filter((e) => e.type === 'info').map((e) => String(e.message));
    expect(shown).toContain('watch: x\\e[2Jy.py:2: make x two AI!');
    expect(shown).toContain('Added x\\e[2Jy.py to the chat.');
    expect(shown.join('\n')).not.toContain('\u001b');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(results(run.events)).toHaveLength(1);
    expect(run.events.at(-1)).toMatchObject({ type: 'result', status: 'interrupted' });
  });
});
