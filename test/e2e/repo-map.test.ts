// The repository map through the built CLI: --show-repo-map, the map in a model request, and the
// tag cache under .tandem/ (created, ignored by git, reused by the next run).
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { gitRepo, read, statusShort } from '../support/temp-repo.js';

const FILES = {
  'src/billing.py': [
    'def compute_invoice_total(items):',
    '    return sum(item.price for item in items)',
    '',
    '',
    'class InvoiceArchive:',
    '    def store_invoice(self, invoice):',
    '        self.saved = invoice',
    '',
  ].join('\n'),
  'src/app.py': [
    'from billing import compute_invoice_total',
    '',
    '',
    'def main_entry_point(items):',
    '    print(compute_invoice_total(items))',
    '',
  ].join('\n'),
};

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const modelArgs = (url: string): string[] => ['--base-url', url, '--model', 'm', '--weak-model', 'w'];

describe('repo map end to end', () => {
  it('--show-repo-map prints the definitions of other files, not the chat file, and caches tags', async () => {
    const repo = gitRepo(FILES);

    const run = await runCli(['--show-repo-map', 'src/app.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('src/billing.py:');
    expect(run.stdout).toContain('|def compute_invoice_total(items):');
    expect(run.stdout).toContain('|    def store_invoice(self, invoice):');
    expect(run.stdout).not.toContain('src/app.py');
    expect(run.stdout).not.toContain('main_entry_point');
    const cache = join(repo, '.tandem', 'tags.cache');
    expect(read(repo, '.tandem/tags.cache')).toContain('compute_invoice_total');
    expect(statusShort(repo)).toBe('');

    // A second run finds every file in the cache: nothing is parsed, so the file is not rewritten.
    const before = statSync(cache);
    const again = await runCli(['--show-repo-map', 'src/app.py'], { cwd: repo });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(run.stdout);
    const after = statSync(cache);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.ino).toBe(before.ino);
  });

  it('a changed file is reparsed and the cache rewritten', async () => {
    const repo = gitRepo(FILES);
    await runCli(['--show-repo-map', 'src/app.py'], { cwd: repo });
    writeFileSync(join(repo, 'src/billing.py'), `${FILES['src/billing.py']}\ndef refund_whole_invoice(invoice):\n    return 0\n`);

    const run = await runCli(['--show-repo-map', 'src/app.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('|def refund_whole_invoice(invoice):');
    expect(read(repo, '.tandem/tags.cache')).toContain('refund_whole_invoice');
  });

  it('sends the map to the model with the request', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('Nothing to change.')] } });
    const repo = gitRepo(FILES);

    const run = await runCli(['--message', 'Explain main_entry_point', '--yes-always', '--no-stream', ...modelArgs(server.url), 'src/app.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    const body = server.chatRequests('m')[0]!.body as { messages: Array<{ content: string }> };
    const sent = body.messages.map((m) => m.content).join('\n');
    expect(sent).toContain('src/billing.py:');
    expect(sent).toContain('|def compute_invoice_total(items):');
    expect(statusShort(repo)).toBe('');
  });
});
