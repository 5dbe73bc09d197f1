// Reasoning models through the real CLI: reasoning in a leading <think> block or in reasoning_content
// deltas, streamed and not. The draft edit inside the reasoning is never applied, the final one is; the
// reasoning is on screen; the next request's history holds none of it; --reasoning-effort reaches the body.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer, type FakeTextStep } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { searchReplace } from '../support/replies.js';
import { gitRepo, read } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const APP = 'def greet():\n    return "hi"\n\n\ndef farewell():\n    return "bye"\n';
const DRAFT = searchReplace('app.py', 'def farewell():\n    return "bye"\n', 'def farewell():\n    return "WRONG DRAFT"\n');
const REASONING = `The user wants greet to say hello. A first idea, for the wrong function:\n\n${DRAFT}\nNo: that is farewell. Pondering-marker-7 says greet is the one.\n`;
const FINAL = `Here is the change.\n\n${searchReplace('app.py', 'def greet():\n    return "hi"\n', 'def greet():\n    return "hello"\n')}`;

type Shape = 'think tag' | 'reasoning_content';
const stepFor = (shape: Shape, chunkSize = 16): FakeTextStep =>
  shape === 'think tag' ? textReply(`<think>\n${REASONING}</think>\n\n${FINAL}`, { chunkSize }) : textReply(FINAL, { reasoning: REASONING, chunkSize });

const args = (url: string, stream: boolean): string[] => [
  '--base-url', url, '--api-key', 'k', '--model', 'r1-local', '--weak-model', 'w', '--map-tokens', '0', '--yes-always',
  '--no-auto-commits', stream ? '--stream' : '--no-stream', '--reasoning-effort', 'high', 'app.py',
];

describe('reasoning models', () => {
  for (const shape of ['think tag', 'reasoning_content'] as const) {
    for (const stream of [true, false]) {
      it(`applies only the final edit and never sends the reasoning back (${shape}, ${stream ? 'streamed' : 'not streamed'})`, async () => {
        server = await startFakeOpenAI({ replies: { 'r1-local': [stepFor(shape), textReply('Nothing more to change.')] }, fallback: textReply('Say hello in greet') });
        const repo = gitRepo({ 'app.py': APP });
        const run = await runCli(args(server.url, stream), { cwd: repo, stdin: 'make greet say hello\nanything else?\n' });
        expect(run.code, run.stderr).toBe(0);

        expect(read(repo, 'app.py')).toBe(APP.replace('"hi"', '"hello"'));
        expect(run.stdout).toContain('Thinking');
        expect(run.stdout).toContain('Pondering-marker-7');
        // The reply is shown after the reasoning, and the reasoning is not shown as reply text again.
        expect(run.stdout.indexOf('Pondering-marker-7')).toBeLessThan(run.stdout.indexOf('Here is the change.'));
        expect(run.stdout.split('Pondering-marker-7')).toHaveLength(2);

        const requests = server.chatRequests('r1-local');
        expect(requests).toHaveLength(2);
        for (const request of requests) {
          expect(request.body.reasoning_effort).toBe('high');
          expect(request.stream).toBe(stream);
        }
        const second = JSON.stringify(requests[1]!.body.messages);
        expect(second).toContain('Here is the change.');
        expect(second).not.toContain('Pondering-marker-7');
        expect(second).not.toContain('WRONG DRAFT');
        expect(second).not.toContain('<think>');
      });
    }
  }

  it('treats the text before a lone </think> line as reasoning (a chat template opened the block)', async () => {
    server = await startFakeOpenAI({ replies: { 'r1-local': [textReply(`${REASONING}</think>\n\n${FINAL}`), textReply('Done.')] }, fallback: textReply('Commit') });
    const repo = gitRepo({ 'app.py': APP });
    const run = await runCli([...args(server.url, true), '--json'], { cwd: repo, stdin: 'make greet say hello\nthanks\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'app.py')).toBe(APP.replace('"hi"', '"hello"'));
    expect(run.events().find((e) => e.type === 'reasoning')?.text).toContain('Pondering-marker-7');
    expect(JSON.stringify(server.chatRequests('r1-local')[1]!.body.messages)).not.toContain('Pondering-marker-7');
  });

  it('applies nothing from a reply cut inside its think block, and says so', async () => {
    server = await startFakeOpenAI({ replies: { 'r1-local': [textReply(`<think>\n${REASONING}`, { finishReason: 'length' })] }, fallback: textReply('Commit message') });
    const repo = gitRepo({ 'app.py': APP });
    const run = await runCli([...args(server.url, true), '--json', '-m', 'make greet say hello'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(read(repo, 'app.py')).toBe(APP);
    const events = run.events();
    expect(events.find((e) => e.type === 'reasoning')?.text).toContain('Pondering-marker-7');
    expect(events.find((e) => e.type === 'assistant')?.text).toBe('');
    expect(events.some((e) => e.type === 'warning' && /inside its reasoning/.test(e.message))).toBe(true);
    expect(events.some((e) => e.type === 'edit')).toBe(false);
    expect(server.chatRequests('r1-local')).toHaveLength(1);
  });

  it('sends no reasoning_effort to a known model that does not reason, and no temperature to one that rejects it', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const base = ['--base-url', server.url, '--api-key', 'k', '--weak-model', 'w', '--map-tokens', '0', '--reasoning-effort', 'low', '--json'];
    const stdin = '/ask hello\n/model o3\n/ask hello again\n';
    const run = await runCli([...base, '--model', 'gpt-4o'], { cwd: repo, stdin });
    expect(run.code, run.stderr).toBe(0);
    const [gpt, o3] = [server.chatRequests('gpt-4o')[0]!.body, server.chatRequests('o3')[0]!.body];
    expect(gpt).not.toHaveProperty('reasoning_effort');
    expect(gpt.temperature).toBe(0);
    expect(o3.reasoning_effort).toBe('low');
    expect(o3).not.toHaveProperty('temperature');
  });
});
