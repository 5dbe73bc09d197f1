// Class: secrets reached commands. Lint, test, /run and git hooks (when the user asks for hooks) get an
// environment without the API key, secret-looking names or URLs with passwords; pass-env keeps named ones.
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCli } from '../support/cli.js';
import { searchReplace } from '../support/replies.js';
import { git, gitRepo, read, tempDir } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const secrets = {
  OPENAI_API_KEY: 'sk-user-key-1',
  GITHUB_PAT: 'ghp_pat_2',
  NPM_CONFIG__AUTH: 'npm-auth-3',
  DEPLOY_TOKEN: 'deploy-token-4',
  DATABASE_URL: 'postgres://u:pa55word5@db/x',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-6',
};
const plain = { PLAIN_SETTING: 'visible-7' };

function dumped(file: string): string {
  return readFileSync(file, 'utf8');
}

describe('commands get no secrets', () => {
  it.each([
    ['headless', [] as string[]],
    ['with --yes-always', ['--yes-always']],
  ])('lint, test, /run and the hooks of --git-commit-verify see none of the secrets (%s)', async (_, flags) => {
    const out = tempDir('tandem-env-');
    const hook = `#!/bin/sh\nenv > ${JSON.stringify(join(out, 'hook.env'))}\n`;
    const repo = gitRepo({ 'a.py': 'a = 1\n', 'hooks/post-commit': hook });
    chmodSync(join(repo, 'hooks/post-commit'), 0o755);
    git(repo, 'config', 'core.hooksPath', 'hooks');
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('a.py', 'a = 1\n', 'a = 2\n'))] }, fallback: textReply('fix: a') });
    const args = [
      '--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', ...flags,
      '--lint-cmd', `sh -c 'env > ${join(out, 'lint.env')}' x`,
      '--test-cmd', `env > ${join(out, 'test.env')}`, '--auto-test', '--git-commit-verify', 'a.py',
    ];

    const edit = await runCli([...args, '-m', 'edit'], { cwd: repo, env: { ...secrets, ...plain } });
    const slashRun = await runCli([...args, '-m', `/run env > ${join(out, 'run.env')}`], { cwd: repo, env: { ...secrets, ...plain } });

    expect(edit.code, edit.stderr).toBe(0);
    expect(slashRun.code, slashRun.stderr).toBe(0);
    expect(read(repo, 'a.py')).toBe('a = 2\n');
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-user-key-1');
    for (const name of ['lint', 'test', 'run', 'hook']) {
      const env = dumped(join(out, `${name}.env`));
      expect(env, name).toContain('visible-7');
      for (const value of Object.values(secrets)) expect(env, `${name}: ${value}`).not.toContain(value);
    }
  });

  it("the user's pass-env keeps the names it lists", async () => {
    const out = tempDir('tandem-env-');
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    const run = await runCli(['--map-tokens', '0', '--pass-env', 'DEPLOY_TOKEN', '-m', `/run env > ${join(out, 'run.env')}`], { cwd: repo, env: { ...secrets } });
    expect(run.code, run.stderr).toBe(0);
    const env = dumped(join(out, 'run.env'));
    expect(env).toContain('deploy-token-4');
    expect(env).not.toContain('sk-user-key-1');
    expect(env).not.toContain('ghp_pat_2');
  });
});
