// What a one-shot request loads, counted through the built CLI: a request whose output goes to a pipe
// never loads the Markdown renderer, and the syntax check of the edited file runs without a parser thread.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { loadProbe } from '../support/load-probe.js';
import { runCli } from '../support/cli.js';
import { commitCount, gitRepo, read } from '../support/temp-repo.js';

const HELLO = 'def hello():\n    print("hello")\n';
const EDIT = ['hello.py', '```python', '<<<<<<< SEARCH', '    print("hello")', '=======', '    print("hello, world")', '>>>>>>> REPLACE', '```', ''].join('\n');

const MARKED = 'marked(): input parameter is undefined or null';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a one-shot request piped to another program', () => {
  it('loads no Markdown renderer and checks the edited file on the main thread, with no worker', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply(EDIT)], w: [textReply('fix: greet the world')] } });
    const repo = gitRepo({ 'hello.py': HELLO });
    const probe = loadProbe();

    const run = await runCli(['-m', 'Greet the world', '--yes-always', '--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', 'hello.py'], {
      cwd: repo,
      env: probe.env,
    });

    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'hello.py')).toContain('hello, world');
    expect(commitCount(repo)).toBe(2);
    const modules = probe.modules();
    expect(modules.map((file) => basename(file))).toContain('tandem.js');
    // The syntax check ran: web-tree-sitter was loaded, in this thread.
    expect(modules.map((file) => basename(file))).toContain('tree-sitter.js');
    expect(probe.workers()).toBe(0);
    // marked is bundled into a chunk: known by its own error message.
    expect(modules.filter((file) => readFileSync(file, 'utf8').includes(MARKED))).toEqual([]);
  });
});
