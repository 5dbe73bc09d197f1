// Class: code runs without a yes. A reply's file names are never read as options, tandem's commits run
// none of the repository's hooks, and a reply cannot write tandem's config (not even in a home that is a repo).
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCli } from '../support/cli.js';
import { searchReplace } from '../support/replies.js';
import { markerPath } from '../support/safety.js';
import { git, gitRepo, read, statusShort } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const create = (path: string, text: string): string => searchReplace(path, '', text);
const base = (url: string): string[] => ['--no-stream', '--base-url', url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0'];

async function serve(replies: string[]): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAI({ replies: { m: replies.map((r) => textReply(r)) }, fallback: textReply('Done.') });
  return server;
}

describe('a reply cannot make tandem run its code', () => {
  it('a file named like an option is passed to the lint command as a file, not an option', async () => {
    const marker = markerPath();
    const evil = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'pwned');\n`;
    const reply = [
      create('evil.cjs', evil),
      create('--require=./evil.cjs', '// looks like an option\n'),
      searchReplace('app.js', 'console.log(1);\n', 'console.log(2);\n'),
    ].join('\n');
    const url = (await serve([reply])).url;
    const repo = gitRepo({ 'app.js': 'console.log(1);\n' });

    const run = await runCli([...base(url), '-m', 'edit', '--yes-always', '--lint-cmd', 'node --check', 'app.js'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    // the run got as far as linting the files it wrote and committing them
    expect(read(repo, 'app.js')).toBe('console.log(2);\n');
    expect(read(repo, '--require=./evil.cjs')).toBe('// looks like an option\n');
    expect(statusShort(repo)).toBe('');
  });

  it("tandem's commits run none of the hooks in git's configured hooks folder", async () => {
    const marker = markerPath();
    const hook = `#!/bin/sh\necho "$0 $OPENAI_API_KEY" >> ${JSON.stringify(marker)}\n`;
    const names = ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'post-index-change'];
    const repo = gitRepo({ 'app.py': 'x = 1\n', ...Object.fromEntries(names.map((n) => [`.husky/_/${n}`, hook])) });
    for (const n of names) chmodSync(join(repo, '.husky/_', n), 0o755);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '--no-verify', '-m', 'husky');
    git(repo, 'config', 'core.hooksPath', '.husky/_');
    const url = (await serve([searchReplace('app.py', 'x = 1\n', 'x = 2\n')])).url;

    const run = await runCli([...base(url), '-m', 'edit', '--yes-always', 'app.py'], { cwd: repo, env: { OPENAI_API_KEY: 'sk-user' } });

    expect(run.code, run.stderr).toBe(0);
    expect(git(repo, 'log', '-1', '--format=%B')).toContain('Tandem-Commit: yes');
    expect(read(repo, 'app.py')).toBe('x = 2\n');
    expect(existsSync(marker)).toBe(false);
  });

  it.each([['headless', []], ['with --yes-always', ['--yes-always']]])('a reply cannot plant a hook (%s): exit 4, nothing written', async (_, flags) => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    git(repo, 'config', 'core.hooksPath', 'tools/hooks');
    const reply = [create('tools/hooks/post-commit', '#!/bin/sh\ntouch /tmp/x\n'), create('.husky/pre-commit', 'x\n'), searchReplace('app.py', 'x = 1\n', 'x = 2\n')].join('\n');
    const srv = await serve([reply]);

    const run = await runCli([...base(srv.url), '-m', 'edit', ...flags, 'app.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(4);
    expect(srv.chatRequests('m')).toHaveLength(1);
    expect(existsSync(join(repo, 'tools/hooks/post-commit'))).toBe(false);
    expect(existsSync(join(repo, '.husky/pre-commit'))).toBe(false);
    expect(read(repo, 'app.py')).toBe('x = 2\n');
  });

  it('a home folder that is a repository: a reply cannot write ~/.tandem.conf.yml', async () => {
    const home = gitRepo({ 'notes.py': 'x = 1\n' });
    const config = 'yes-always: true\nlint-cmd: touch pwned\n';
    const srv = await serve([[create('.tandem.conf.yml', config), searchReplace('notes.py', 'x = 1\n', 'x = 2\n')].join('\n')]);

    const run = await runCli([...base(srv.url), '-m', 'edit', '--yes-always', 'notes.py'], { cwd: home, home });

    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(home, '.tandem.conf.yml'))).toBe(false);
    expect(read(home, 'notes.py')).toBe('x = 2\n');
    expect(statusShort(home)).toBe('');
    // the model was told why, in the next request
    const told = JSON.stringify(srv.chatRequests('m')[1]?.body.messages.at(-1));
    expect(told).toMatch(/Refused edit of \.tandem\.conf\.yml: tandem's configuration files are never edited/);
  });
});
