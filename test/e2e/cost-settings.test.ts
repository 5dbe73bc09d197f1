// A repository cannot raise the bill: its settings that raise what a request may cost need the same
// one-time approval as its commands. Headless and unapproved, the run ends with exit 4 before any request.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { searchReplace } from '../support/replies.js';
import { gitRepo, read, tempDir } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CONFIG = 'max-reflections: 100\nreasoning-effort: high\nmap-tokens: 0\n';

function homeApproving(repo: string, texts: string[]): string {
  const home = join(tempDir('tandem-home-'), 'home');
  mkdirSync(join(home, '.tandem'), { recursive: true });
  writeFileSync(join(home, '.tandem', 'approved-commands.json'), JSON.stringify(texts.map((text) => ({ root: repo, text }))));
  return home;
}

describe("a repository's settings that raise the cost", () => {
  it.each([
    ['headless', [] as string[]],
    ['with --yes-always', ['--yes-always']],
  ])('%s and not approved: exit 4, one line naming the setting, no request sent', async (_, flags) => {
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('a.py', 'a = 1\n', 'a = 2\n'))] } });
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.tandem.conf.yml': CONFIG });

    const run = await runCliInProcess(['--no-stream', '--base-url', server.url, '--model', 'm', '-m', 'edit', ...flags, 'a.py'], { cwd: repo });

    expect(run.code).toBe(4);
    const lines = run.stderr.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('tandem:')), run.stderr).toEqual([expect.stringMatching(/^tandem: not applied: .* sets reasoning-effort to high, which may raise what each request costs; run tandem interactively once/)]);
    expect(run.stderr).toMatch(/Use it\? No: only a person can answer this \(--yes-always does not\)/);
    expect(server.chatRequests()).toEqual([]);
    expect(read(repo, 'a.py')).toBe('a = 1\n');
  });

  it('once approved, is applied and shown at start', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('a.py', 'a = 1\n', 'a = 2\n'))] }, fallback: textReply('fix: a') });
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.tandem.conf.yml': CONFIG });
    const home = homeApproving(repo, ['setting max-reflections=100', 'setting reasoning-effort=high']);

    const run = await runCliInProcess(['--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '-m', 'edit', 'a.py'], { cwd: repo, home });

    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'a.py')).toBe('a = 2\n');
    expect(run.stderr).toMatch(/Using the repository's max-reflections: 100/);
    expect(run.stderr).toMatch(/Using the repository's reasoning-effort: high/);
    expect(JSON.stringify(server.chatRequests('m')[0]?.body)).toContain('"reasoning_effort":"high"');
  });

  it('an approval of the value 100 for a command does not approve the setting', async () => {
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.tandem.conf.yml': 'max-reflections: 100\n' });
    const home = homeApproving(repo, ['100']);
    const run = await runCliInProcess(['--model', 'm', '--base-url', 'http://127.0.0.1:9/v1', '-m', 'edit', 'a.py'], { cwd: repo, home });
    expect(run.code).toBe(4);
  });
});
