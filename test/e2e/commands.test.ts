// Issue 7's commands through the real CLI, fed line by line on stdin: one-off modes, mode switches,
// /model, /read-only, /settings and /help.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { gitRepo } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const args = (url: string): string[] => ['--base-url', url, '--api-key', 'k', '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--json'];

describe('mode and model commands', () => {
  it('runs /ask TEXT as a one-off ask request and /ask alone as a switch', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const repo = gitRepo({ 'a.txt': 'alpha\n' });
    const stdin = ['/ask what is alpha?', 'plain request', '/ask', 'second plain request', '/code', 'third'].join('\n') + '\n';
    const run = await runCli(args(server.url), { cwd: repo, stdin });
    expect(run.code, run.stderr).toBe(0);
    const users = run.events().filter((e) => e.type === 'user');
    expect(users.map((e) => [e.text, e.mode])).toEqual([
      ['what is alpha?', 'ask'],
      ['plain request', 'code'],
      ['second plain request', 'ask'],
      ['third', 'code'],
    ]);
    expect(run.events().some((e) => e.type === 'info' && /Switched to ask mode/.test(e.message))).toBe(true);
  });

  it('switches the main model mid-chat and adds read-only files to the request', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const repo = gitRepo({ 'notes.md': 'the secret word is heliotrope\n' });
    const stdin = ['/model other-model', '/read-only notes.md', '/ask what is the word?'].join('\n') + '\n';
    const run = await runCli(args(server.url), { cwd: repo, stdin });
    expect(run.code, run.stderr).toBe(0);
    const requests = server.chatRequests('other-model');
    expect(requests).toHaveLength(1);
    expect(JSON.stringify(requests[0]!.body.messages)).toContain('heliotrope');
    expect(server.chatRequests('m')).toHaveLength(0);
  });

  it('prints the settings with their sources, and /help for every command', async () => {
    server = await startFakeOpenAI();
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const stdin = ['/settings', '/help', '/help read-only', '/help architect'].join('\n') + '\n';
    const run = await runCli(args(server.url), { cwd: repo, stdin, env: { TANDEM_MAX_REFLECTIONS: '2' } });
    expect(run.code, run.stderr).toBe(0);
    const printed = run.events().filter((e) => e.type === 'info').map((e) => String(e.message)).join('\n');
    expect(printed).toMatch(/^model\s+m\s+\(command line\)$/m);
    expect(printed).toMatch(/^max-reflections\s+2\s+\(environment\)$/m);
    expect(printed).toMatch(/^api-key\s+\*\*\*\*/m);
    for (const name of ['ask', 'code', 'architect', 'model', 'weak-model', 'editor-model', 'read-only', 'settings']) {
      expect(printed).toMatch(new RegExp(`^  /${name}\\s`, 'm'));
    }
    expect(printed).toContain('Usage: /read-only FILE...');
    expect(printed).toContain('Usage: /architect [TEXT]');
  });
});
