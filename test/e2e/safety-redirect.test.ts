// Class: a repository redirected the user's things. Its API key never replaces the user's (and is used
// only after a yes naming the file), its llm-log must stay inside it, a `.tandem` that is not a real
// folder of the repository receives nothing, and the model server cannot send the key on elsewhere.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCli } from '../support/cli.js';
import { searchReplace } from '../support/replies.js';
import { git, gitRepo, read, statusShort, tempDir } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const modes = [
  ['headless', [] as string[]],
  ['with --yes-always', ['--yes-always']],
] as const;

async function run(repo: string, args: readonly string[], options: { env?: Record<string, string>; home?: string } = {}) {
  server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('a.py', 'a = 1\n', 'a = 2\n'))] }, fallback: textReply('fix: a') });
  const result = await runCli(['--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '-m', 'edit', ...args, 'a.py'], { cwd: repo, ...options });
  return { result, auth: server.requests.map((r) => r.headers['authorization']) };
}

function homeWith(files: Record<string, string>): string {
  const home = join(tempDir('tandem-home-'), 'home');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(home, name, '..'), { recursive: true });
    writeFileSync(join(home, name), text);
  }
  mkdirSync(home, { recursive: true });
  return home;
}

describe("a repository cannot take the user's API key's place", () => {
  it.each(modes)("the user's key from the environment is sent, not the repository's (%s)", async (_, flags) => {
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.tandem.conf.yml': 'api-key: sk-repo-config\n', '.env': 'OPENAI_API_KEY=sk-repo-dotenv\n' });
    const { result, auth } = await run(repo, flags, { env: { OPENAI_API_KEY: 'sk-user-env' } });
    expect(result.code, result.stderr).toBe(0);
    expect(read(repo, 'a.py')).toBe('a = 2\n');
    expect(auth.length).toBeGreaterThan(0);
    expect(new Set(auth)).toEqual(new Set(['Bearer sk-user-env']));
  });

  it.each(modes)("the user's key from the home config is sent, not the repository's (%s)", async (_, flags) => {
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.env': 'OPENAI_API_KEY=sk-repo-dotenv\n' });
    const { result, auth } = await run(repo, flags, { home: homeWith({ '.tandem.conf.yml': 'api-key: sk-user-home\n' }) });
    expect(result.code, result.stderr).toBe(0);
    expect(new Set(auth)).toEqual(new Set(['Bearer sk-user-home']));
  });

  it.each(modes)('with no key of the user, the repository key needs a yes naming its file: exit 4, nothing sent (%s)', async (_, flags) => {
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.env': 'OPENAI_API_KEY=sk-repo-dotenv\n' });
    const { result, auth } = await run(repo, flags);
    expect(result.code, result.stderr).toBe(4);
    expect(auth).toHaveLength(0);
    expect(result.stderr).toContain(`${join(repo, '.env')} sets an API key for you`);
    expect(result.stderr).not.toContain('sk-repo-dotenv');
  });

  it('once approved for that file and key, the repository key is used', async () => {
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.env': 'OPENAI_API_KEY=sk-repo-dotenv\n' });
    const digest = createHash('sha256').update('sk-repo-dotenv').digest('hex').slice(0, 16);
    const text = `api-key from ${join(repo, '.env')} sha256:${digest}`;
    const home = homeWith({ '.tandem/approved-commands.json': JSON.stringify([{ root: repo, text }]) });
    const { result, auth } = await run(repo, [], { home });
    expect(result.code, result.stderr).toBe(0);
    expect(new Set(auth)).toEqual(new Set(['Bearer sk-repo-dotenv']));
  });
});

describe("a repository cannot send tandem's files elsewhere", () => {
  it.each(modes)('an llm-log outside the repository (directly or through a symlinked folder) is not written (%s)', async (_, flags) => {
    const outside = tempDir('tandem-outside-');
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.tandem.conf.yml': `llm-log: ../${outside.split('/').pop()}/llm.jsonl\n` });
    const first = await run(repo, flags);
    symlinkSync(outside, join(repo, 'logs'));
    writeFileSync(join(repo, '.tandem.conf.yml'), 'llm-log: logs/llm.jsonl\n');
    writeFileSync(join(repo, 'a.py'), 'a = 1\n');
    const second = await run(repo, flags);

    expect(first.result.code, first.result.stderr).toBe(0);
    expect(first.result.stderr).toMatch(/llm-log: .* ignored; a repository's config may only name paths inside the repository/);
    expect(second.result.code, second.result.stderr).toBe(0);
    expect(second.result.stderr).toMatch(/llm-log logs\/llm\.jsonl from the repository's config leads outside the repository; ignored/);
    expect(second.auth.length).toBeGreaterThan(0);
    expect(readdirSync(outside)).toEqual([]);
  });

  it.each(modes)('a committed .tandem symlink receives no session log or transcript (%s)', async (_, flags) => {
    const outside = tempDir('tandem-outside-');
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    symlinkSync(outside, join(repo, '.tandem'));
    git(repo, 'add', '.tandem');
    git(repo, 'commit', '-q', '-m', 'a stranger commits a link');
    const { result, auth } = await run(repo, flags);

    expect(result.code, result.stderr).toBe(0);
    expect(auth.length).toBeGreaterThan(0);
    expect(read(repo, 'a.py')).toBe('a = 2\n');
    expect(statusShort(repo)).toBe('');
    expect(result.stderr).toMatch(/\.tandem is a symlink, not a folder of this repository: tandem writes nothing there/);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(outside, 'sessions'))).toBe(false);
  });
});

describe('the model server cannot send the key on elsewhere', () => {
  it.each(modes)('a redirect is not followed: the request fails naming where it pointed, exit 1, nothing sent there (%s)', async (_, flags) => {
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('a.py', 'a = 1\n', 'a = 2\n'))] }, fallback: textReply('fix: a') });
    const elsewhere = server.url;
    const asked: string[] = [];
    const redirector = http.createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(307, { location: `${elsewhere}${(req.url ?? '/').replace(/^\/v1/, '')}` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const repo = gitRepo({ 'a.py': 'a = 1\n' });
      const base = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/v1`;
      const result = await runCli(['--no-stream', '--base-url', base, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '-m', 'edit', ...flags, 'a.py'], {
        cwd: repo, env: { OPENAI_API_KEY: 'sk-user-env' },
      });
      // The run got as far as its request: the redirector was asked for a reply.
      expect(asked).toContain('POST /v1/chat/completions');
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`redirected to ${elsewhere}/chat/completions`);
      expect(server.requests).toEqual([]);
      expect(read(repo, 'a.py')).toBe('a = 1\n');
      expect(statusShort(repo)).toBe('');
    } finally {
      redirector.closeAllConnections();
      await new Promise((resolve) => redirector.close(resolve));
    }
  });
});
