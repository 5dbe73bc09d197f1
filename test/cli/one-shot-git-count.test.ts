// The git processes of a one-shot request (`--message ... --yes-always`: an edit, a commit message from the
// weak model, the commit), counted as processes: the config guard's listing, the top folder with
// git's paths, the work tree's status (the index is read from its file), and the commit, whose own summary
// names the new commit. Issue 28's target is four. Counted by a `git` first on PATH (test/support/git-counter.ts).
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitCounter } from '../support/git-counter.js';
import { gitRepo, read } from '../support/temp-repo.js';

const counter = gitCounter();

const FILE = 'app/hello.py';
const EDIT = ['Changing the greeting.', '', FILE, '```python', '<<<<<<< SEARCH', '    print("hello")', '=======', '    print("hello, world")', '>>>>>>> REPLACE', '```', ''].join('\n');

let server: FakeOpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  counter.reset();
});

describe('git processes of a one-shot request', () => {
  it('are four: config listing, top folder, status and the commit, which reports the exact new HEAD', async () => {
    server = await startFakeOpenAI({ fallback: (request) => textReply(request.model === 'weak' ? 'greet the world' : EDIT) });
    const repo = gitRepo({ [FILE]: 'def hello():\n    print("hello")\n', 'app/util.py': 'def shout(text):\n    return text.upper()\n' });
    const args = ['--json', '--message', 'Greet the world', '--yes-always', '--no-stream', '--base-url', server.url, '--api-key', 'test-key-for-counting', '--model', 'main', '--weak-model', 'weak', FILE];

    const run = await runCliInProcess(args, { cwd: repo, env: { PATH: counter.path } });

    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, FILE)).toContain('hello, world');
    expect(counter.subcommands(), counter.calls()).toEqual(['config', 'rev-parse', 'status', 'commit']);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
    const commit = run.events().find((event) => event['type'] === 'commit');
    expect(commit?.['hash']).toBe(head);
    expect(execFileSync('git', ['show', '--name-only', '--format=', 'HEAD'], { cwd: repo, encoding: 'utf8' })).toBe(`${FILE}\n`);
  }, 60_000);
});
