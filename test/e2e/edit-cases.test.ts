// Edit cases of issue 21 through the whole CLI in process: what the model is told (an unwritable path,
// a reply that changed nothing), what lands (a no-op block beside a real one, a real `path/to/` folder).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { searchReplace } from '../support/replies.js';
import { gitRepo, read, statusShort } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(replies: string[], files: Record<string, string>, args: string[]) {
  server = await startFakeOpenAI({ replies: { m: replies.map((r) => textReply(r)) }, fallback: textReply('fix: edit') });
  const repo = gitRepo(files);
  const result = await runCliInProcess(['--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--json', ...args], { cwd: repo });
  const requests = server.chatRequests('m');
  const lastUser = (i: number): string => String(requests[i]?.body.messages.at(-1).content ?? '');
  return { repo, result, requests, lastUser };
}

describe('what the model is told', () => {
  it('an edit to a path that cannot be written is a failure the model hears about, headless, with no question first', async () => {
    const reply = `${searchReplace('app.py', 'x = 1\n', 'x = 2\n')}\n${searchReplace('app.py/child.py', '', 'y = 1\n')}`;
    const { repo, result, requests, lastUser } = await run([reply, 'I will leave it there.'], { 'app.py': 'x = 1\n' }, ['-m', 'edit', 'app.py']);

    expect(result.code, result.stderr).toBe(0);
    expect(read(repo, 'app.py')).toBe('x = 2\n');
    expect(requests).toHaveLength(2);
    expect(lastUser(1)).toContain('Cannot write app.py/child.py: app.py is a file, not a folder.');
    expect(result.events().filter((e) => e.type === 'question')).toEqual([]);
  });

  it('a block whose SEARCH equals its REPLACE is a note; the other block lands with no reflection', async () => {
    const reply = `${searchReplace('app.py', 'x = 1\n', 'x = 1\n')}\n${searchReplace('app.py', 'y = 1\n', 'y = 2\n')}`;
    const { repo, result, requests } = await run([reply], { 'app.py': 'x = 1\ny = 1\n' }, ['-m', 'edit', 'app.py']);

    expect(result.code, result.stderr).toBe(0);
    expect(read(repo, 'app.py')).toBe('x = 1\ny = 2\n');
    expect(statusShort(repo)).toBe('');
    expect(requests).toHaveLength(1);
    const events = result.events();
    expect(events.filter((e) => e.type === 'edit').map((e) => [e.path, e.status])).toEqual([['app.py', 'applied']]);
    expect(events.some((e) => e.type === 'info' && /identical, so it changed nothing/.test(e.message))).toBe(true);
  });

  it('a reply of only such blocks tells the model nothing changed', async () => {
    const reply = searchReplace('app.py', 'x = 1\n', 'x = 1\n');
    const { repo, result, requests, lastUser } = await run([reply, 'Nothing needed changing.'], { 'app.py': 'x = 1\n' }, ['-m', 'edit', 'app.py']);

    expect(result.code, result.stderr).toBe(0);
    expect(read(repo, 'app.py')).toBe('x = 1\n');
    expect(requests).toHaveLength(2);
    expect(lastUser(1)).toMatch(/identical SEARCH and REPLACE sections, so no file was changed/);
  });
});

describe('a suggested command nobody can approve', () => {
  it('headless: the reply lands, the tests still run and their failure is fixed, then the request ends with exit 4', async () => {
    const breaking = `${searchReplace('app.py', 'x = 1\n', 'x = 2\n')}\nCheck it with:\n\n\`\`\`bash\npython3 app.py\n\`\`\`\n`;
    const fixing = searchReplace('app.py', 'x = 2\n', 'x = 3\n');
    const test = 'grep -q "x = 3" app.py || { echo "x must be 3"; exit 1; }';
    const { repo, result, requests, lastUser } = await run([breaking, fixing], { 'app.py': 'x = 1\n' }, ['-m', 'edit', '--yes-always', '--auto-test', '--test-cmd', test, 'app.py']);

    expect(result.code, result.stderr).toBe(4);
    expect(requests).toHaveLength(2);
    expect(lastUser(1)).toContain('x must be 3');
    expect(read(repo, 'app.py')).toBe('x = 3\n');
    expect(result.events().at(-1)).toMatchObject({ type: 'result', status: 'approval_required' });
  });
});

describe('the example folder path/to/', () => {
  it('is used when the repository really has it', async () => {
    const reply = searchReplace('path/to/new.py', '', 'z = 1\n');
    const { repo, result } = await run([reply], { 'app.py': 'x = 1\n', 'path/to/old.py': 'o = 1\n' }, ['-m', 'edit', '--yes-always', 'app.py']);

    expect(result.code, result.stderr).toBe(0);
    expect(read(repo, 'path/to/new.py')).toBe('z = 1\n');
  });

  it('is never created when it does not exist', async () => {
    const reply = searchReplace('path/to/new.py', '', 'z = 1\n');
    const { repo, lastUser } = await run([reply, 'ok'], { 'app.py': 'x = 1\n' }, ['-m', 'edit', '--yes-always', 'app.py']);

    expect(existsSync(join(repo, 'path'))).toBe(false);
    expect(lastUser(1)).toContain('example folder');
  });
});
