// Watch mode is the user's choice only: a repository's config naming watch-files is ignored with a
// warning (its files would become requests nobody typed), and a run without a repository refuses it.
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('watch-files from a repository', () => {
  it("is ignored with a warning: the piped run reads its lines and ends instead of watching", async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('Hello.')] } });
    const repo = gitRepo({ '.tandem.conf.yml': 'watch-files: true\n', 'a.py': '# AI! run me\n' });
    const run = await runCliInProcess(['--json', '--base-url', server.url, '--api-key', 'k', '--model', 'm', '--map-tokens', '0'], { cwd: repo, stdin: 'hi\n' });
    expect(run.code).toBe(0);
    expect(run.stderr + run.stdout).toContain('watch-files: ignored; only your own config or flags can set watch-files');
    expect(run.events().some((e) => e.type === 'info' && String(e.message).startsWith('Watching'))).toBe(false);
    expect(server.chatRequests('m')).toHaveLength(1);
  });

  it('needs a git repository when headless', async () => {
    const run = await runCliInProcess(['--json', '--watch-files', '--model', 'm', '--api-key', 'k'], { cwd: tempDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--watch-files needs a git repository');
  });
});
