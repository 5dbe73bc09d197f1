// Images in the chat through the CLI: an image_url part with the file's bytes for a vision model, a
// one-line refusal for a model known not to take images, the size cap checked before reading, the
// magic bytes deciding (not the name), symlinks out of the repository refused, --resume noticing a
// changed image, and a text-only server's rejection as one clear error without a retry loop.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorReply, startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const dataUrl = (bytes: Buffer): string => `data:image/png;base64,${bytes.toString('base64')}`;

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const args = (url: string, model: string, extra: string[] = []): string[] =>
  ['--base-url', url, '--api-key', 'k', '--model', model, '--weak-model', 'w', '--map-tokens', '0', '--json', '--max-retries', '0', ...extra];
const infos = (events: Array<Record<string, any>>): string[] => events.filter((e) => e.type === 'info' || e.type === 'warning').map((e) => String(e.message));
const imageUrls = (body: any): string[] =>
  (body.messages as Array<{ content: unknown }>).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p: any) => p.type === 'image_url').map((p: any) => p.image_url.url);

describe('images', () => {
  it('sends the bytes as an image_url part to a vision model; the bytes decide, not the name', async () => {
    server = await startFakeOpenAI({ fallback: textReply('A red dot.') });
    const repo = gitRepo({ 'a.txt': 'alpha\n', 'fake.png': 'just text in a png name\n' });
    writeFileSync(join(repo, 'logo.png'), PNG);
    writeFileSync(join(repo, 'shot.dat'), PNG);
    const outside = join(tempDir(), 'private.png');
    writeFileSync(outside, PNG);
    symlinkSync(outside, join(repo, 'link.png'));
    const stdin = ['/add logo.png shot.dat fake.png link.png', '/tokens', '/ask what is in the picture?'].join('\n');
    const run = await runCli(args(server.url, 'gpt-4o'), { cwd: repo, stdin: `${stdin}\n` });
    expect(run.code, run.stderr).toBe(0);
    const lines = infos(run.events());
    expect(lines).toContain('Added image logo.png to the chat (about 255 tokens).');
    expect(lines).toContain('Added image shot.dat to the chat (about 255 tokens).');
    expect(lines).toContain('Added fake.png to the chat.');
    expect(lines.some((l) => l.startsWith('Cannot add link.png: link.png leads outside the repository'))).toBe(true);
    expect(lines.find((l) => l.includes('room left'))).toMatch(/logo\.png\s+\d+/);
    const body = server.chatRequests('gpt-4o')[0]!.body;
    expect(imageUrls(body)).toEqual([dataUrl(PNG), dataUrl(PNG)]);
    expect(JSON.stringify(body)).toContain('just text in a png name');
    // The session log names the image by path and digest, never its bytes.
    const logs = readdirSync(join(repo, '.tandem', 'sessions')).map((name) => readFileSync(join(repo, '.tandem', 'sessions', name), 'utf8')).join('');
    expect(logs).toContain(createHash('sha256').update(PNG).digest('hex'));
    expect(logs).not.toContain(PNG.toString('base64'));
  });

  it('refuses an image for a model known not to take images, and one over the cap before reading it', async () => {
    server = await startFakeOpenAI({ fallback: textReply('ok') });
    const repo = gitRepo({ 'a.txt': 'alpha\n' });
    writeFileSync(join(repo, 'logo.png'), PNG);
    const huge = join(repo, 'huge.png');
    writeFileSync(huge, PNG);
    truncateSync(huge, 64 * 1024 * 1024); // sparse: over the cap without writing it
    const text = await runCli(args(server.url, 'deepseek-chat'), { cwd: repo, stdin: '/add logo.png\n' });
    expect(infos(text.events())).toContain('Cannot add logo.png: deepseek-chat does not take images (vision: false in its model settings); switch with /model.');
    const big = await runCli(args(server.url, 'gpt-4o'), { cwd: repo, stdin: '/add huge.png\n' });
    expect(infos(big.events())).toContain('Cannot add huge.png: huge.png is 67,108,864 bytes, over the 10,485,760-byte limit; not read.');
  });

  it('says when an image changed since the session was saved, and sends the new bytes', async () => {
    server = await startFakeOpenAI({ fallback: textReply('ok') });
    const repo = gitRepo({ 'a.txt': 'alpha\n' });
    writeFileSync(join(repo, 'logo.png'), PNG);
    const first = await runCli(args(server.url, 'gpt-4o'), { cwd: repo, stdin: '/add logo.png\n/ask look\n' });
    expect(first.code, first.stderr).toBe(0);
    const changed = Buffer.concat([PNG, Buffer.from('changed')]);
    writeFileSync(join(repo, 'logo.png'), changed);
    const resumed = await runCli(args(server.url, 'gpt-4o', ['--resume']), { cwd: repo, stdin: '/ask again\n' });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(infos(resumed.events())).toContain('Image logo.png changed since the session was saved; its current version is sent.');
    expect(imageUrls(server.chatRequests('gpt-4o')[1]!.body)).toEqual([dataUrl(changed)]);
  });

  it('reports a text-only server rejecting image parts once, with no retry loop', async () => {
    server = await startFakeOpenAI({ replies: [errorReply(400, 'image input is not supported by this model')], fallback: textReply('ok') });
    const repo = gitRepo({ 'a.txt': 'alpha\n' });
    writeFileSync(join(repo, 'logo.png'), PNG);
    const run = await runCli(args(server.url, 'local-model', ['--max-retries', '3']), { cwd: repo, stdin: '/add logo.png\n/ask look\n' });
    expect(run.code).toBe(1);
    expect(infos(run.events())).toContain('tandem does not know whether local-model takes images; sending logo.png anyway.');
    const errors = run.events().filter((e) => e.type === 'error').map((e) => String(e.message));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/HTTP 400.*may not take images/);
    expect(server.chatRequests()).toHaveLength(1);
  });
});
