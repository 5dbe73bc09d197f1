// Cache keep-alive through the built CLI with a short interval: after a reply, while tandem waits for the
// next line, it pings with the last request byte for byte (one output token), N times, and /tokens counts
// them. (The clock-faked unit test shows the interval and that typing stops them.)
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, CLI } from '../support/cli.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('cache keep-alive', () => {
  it('pings N times while the chat waits for input, with the last request byte for byte', async () => {
    const usage = { prompt_tokens: 2000, completion_tokens: 1, cached_tokens: 1800 };
    server = await startFakeOpenAI({ fallback: textReply('Fine.', { usage }) });
    const repo = gitRepo({ 'a.py': 'x = 1\n' });
    const home = join(tempDir('tandem-home-'), 'home');
    mkdirSync(home, { recursive: true });
    const args = ['--base-url', server.url, '--api-key', 'k', '--model', 'claude-sonnet-4', '--weak-model', 'w', '--map-tokens', '0', '--json', '--cache-keepalive-pings', '2', '--cache-keepalive-interval', '1', 'a.py'];
    const child = spawn(process.execPath, [CLI, ...args], { cwd: repo, env: baseEnv(home), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let secondPing: () => void = () => {};
    const secondPingShown = new Promise<void>((resolve) => (secondPing = resolve));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('ping 2 of 2')) secondPing();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdin.write('/ask what is x?\n');
    await secondPingShown;
    child.stdin.end('/tokens\n');
    expect(await exited, stderr).toBe(0);

    const [request, ...pings] = server.chatRequests('claude-sonnet-4');
    expect(pings).toHaveLength(2);
    for (const ping of pings) {
      expect(JSON.stringify(ping.body.messages)).toBe(JSON.stringify(request!.body.messages));
      expect(ping.body.max_tokens).toBe(1);
    }
    expect(JSON.stringify(request!.body.messages)).toContain('cache_control');
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
    const notes = events.filter((e) => e.type === 'info').map((e) => String(e.message));
    expect(notes.filter((n) => n.startsWith('Cache keep-alive'))).toEqual([
      'Cache keep-alive ping 1 of 2, 1800 of 2000 prompt tokens cached, $0.0012.',
      'Cache keep-alive ping 2 of 2, 1800 of 2000 prompt tokens cached, $0.0012.',
    ]);
    expect(notes.at(-1)).toMatch(/keep-alive\s+2 pings, \$0\.0023/);
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'completed' });
    expect(events.at(-1)!.totals.cost).toBeGreaterThan(0.0023);
  });
});
