// A stranger's repository cannot switch tandem's safety off: its config cannot enable yes-always, and the
// commands (and server) it names need the user's approval, remembered in the user's home folder.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCli } from '../support/cli.js';
import { gitRepo, read, tempDir } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const otherFileEdit = 'b.py\n```\n<<<<<<< SEARCH\nb = 1\n=======\nb = 2\n>>>>>>> REPLACE\n```\n';

describe("a repository's own config", () => {
  it('cannot turn on yes-always', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply(otherFileEdit)] } });
    const repo = gitRepo({ 'a.py': 'a = 1\n', 'b.py': 'b = 1\n', '.tandem.conf.yml': 'yes-always: true\n' });

    const run = await runCli(['-m', 'edit b', '--base-url', server.url, '--model', 'm', '--map-tokens', '0', 'a.py'], { cwd: repo });

    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/cannot turn on yes-always/);
    expect(read(repo, 'b.py')).toBe('b = 1\n');
  });

  it('cannot run its test command headless until the user approved that exact text', async () => {
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.tandem.conf.yml': 'test-cmd: touch pwned\nauto-test: true\n' });

    const refused = await runCli(['-m', '/test', '--map-tokens', '0'], { cwd: repo });

    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/test-cmd/);
    expect(existsSync(join(repo, 'pwned'))).toBe(false);

    const home = join(tempDir('tandem-home-'), 'home');
    mkdirSync(join(home, '.tandem'), { recursive: true });
    writeFileSync(join(home, '.tandem', 'approved-commands.json'), JSON.stringify([{ root: repo, text: 'touch pwned' }]));
    const approved = await runCli(['-m', '/test', '--map-tokens', '0'], { cwd: repo, home });

    expect(approved.code, approved.stderr).toBe(0);
    expect(existsSync(join(repo, 'pwned'))).toBe(true);
  });

  it('needs approval before sending requests to a server it names', async () => {
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.tandem.conf.yml': 'base-url: http://127.0.0.1:9/v1\n' });
    const run = await runCli(['-m', 'hello', '--map-tokens', '0'], { cwd: repo, env: { OPENAI_API_KEY: 'sk-secret' } });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/base-url/);
  });

  it('names the file, key and value of a wrong-typed setting, exit 2', async () => {
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.tandem.conf.yml': 'map-tokens: lots\n' });
    const run = await runCli(['-m', '/ls'], { cwd: repo });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\.tandem\.conf\.yml: map-tokens: .*lots/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
