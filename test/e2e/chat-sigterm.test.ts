// A chat fed on stdin (a script, an editor plugin) ends on one SIGTERM: idle it leaves with its result so
// far, during a request it stops the request and exits 130. Ctrl-C's "again to leave" is for a person.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, CLI } from '../support/cli.js';
import { hangReply, startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The CLI on a stdin pipe that stays open, its JSON events as they arrive. */
function openChat(cwd: string, url: string) {
  const child = spawn(process.execPath, [CLI, '--json', '--no-stream', '--base-url', url, '--api-key', 'k', '--model', 'm', '--weak-model', 'm', '--map-tokens', '0'], {
    cwd,
    env: baseEnv(tempDir()),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const events: Array<Record<string, unknown>> = [];
  let buffer = '';
  const seen: Array<() => void> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line) as Record<string, unknown>);
    for (const wake of seen.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waitFor = async (type: string): Promise<void> => {
    while (!events.some((e) => e.type === type)) {
      if (child.exitCode !== null) throw new Error(`exited before a ${type} event: ${JSON.stringify(events)}`);
      await new Promise<void>((resolve) => seen.push(resolve));
    }
  };
  return { child, events, exited, waitFor };
}

describe('a chat on stdin and SIGTERM', () => {
  it('ends on one SIGTERM while idle, with its result', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('Hello.')] } });
    const chat = openChat(gitRepo({ 'a.py': 'x = 1\n' }), server.url);
    chat.child.stdin.write('/ask say hello\n');
    await chat.waitFor('assistant');
    chat.child.kill('SIGTERM');
    expect(await chat.exited).toBe(0);
    expect(chat.events.at(-1)).toMatchObject({ type: 'result', status: 'completed' });
  });

  it('stops a running request on one SIGTERM and exits 130', async () => {
    server = await startFakeOpenAI({ replies: { m: [hangReply()] } });
    const chat = openChat(gitRepo({ 'a.py': 'x = 1\n' }), server.url);
    chat.child.stdin.write('/ask wait for me\n');
    await chat.waitFor('user');
    await server.waitForChatRequests(1);
    chat.child.kill('SIGTERM');
    expect(await chat.exited).toBe(130);
    expect(chat.events.at(-1)).toMatchObject({ type: 'result', status: 'interrupted' });
  });
});
