// --apply FILE: a reply saved from elsewhere lands and commits as if the model had sent it, with no
// request to the model; a reply whose edit does not match ends with exit 3 and sends nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { commitCount, gitRepo, read, tempDir } from '../support/temp-repo.js';

const REPLY = [
  'The greeting should name the world. Here is the change:',
  '',
  'hello.py',
  '```python',
  '<<<<<<< SEARCH',
  'def greet():',
  '    print("hello")',
  '=======',
  'def greet():',
  '    print("hello, world")',
  '>>>>>>> REPLACE',
  '```',
  '',
].join('\n');

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const args = (url: string): string[] => ['--base-url', url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--json', '--edit-format', 'diff'];

describe('--apply', () => {
  it('applies and commits a saved reply without asking the model', async () => {
    server = await startFakeOpenAI({ replies: { w: [textReply('Greet the world')] } });
    const repo = gitRepo({ 'hello.py': 'def greet():\n    print("hello")\n' });
    const saved = join(tempDir(), 'reply.md');
    writeFileSync(saved, REPLY);
    const before = commitCount(repo);
    const run = await runCli([...args(server.url), '--apply', saved, 'hello.py'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'hello.py')).toBe('def greet():\n    print("hello, world")\n');
    expect(commitCount(repo)).toBe(before + 1);
    expect(run.events().find((e) => e.type === 'commit')?.message).toBe('Greet the world');
    expect(server.chatRequests('m')).toHaveLength(0);
    expect(run.events().at(-1)).toMatchObject({ type: 'result', status: 'completed' });
  });

  it('ends with exit 3 when the reply does not apply, and sends nothing to a model', async () => {
    server = await startFakeOpenAI();
    const repo = gitRepo({ 'hello.py': 'def greet():\n    print("bonjour")\n' });
    const saved = join(tempDir(), 'reply.md');
    writeFileSync(saved, REPLY);
    const run = await runCli([...args(server.url), '--apply', saved, 'hello.py'], { cwd: repo });
    expect(run.code).toBe(3);
    expect(read(repo, 'hello.py')).toBe('def greet():\n    print("bonjour")\n');
    expect(run.events().some((e) => e.type === 'error' && /did not all land/.test(e.message))).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('is a usage error when the file cannot be read', async () => {
    const repo = gitRepo({ 'hello.py': 'x\n' });
    const run = await runCli(['--apply', join(repo, 'missing.md'), '--json'], { cwd: repo });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--apply: .*missing\.md does not exist/);
  });
});
