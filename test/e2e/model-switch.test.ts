// /model, /weak-model and /editor-model through the real CLI (fed on stdin): the whole profile switches
// (context window, edit format, temperature and cache rules), /settings names the chat as the source,
// and the prompt-cache hints reach the request body only for the servers they are meant for.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { gitRepo } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const base = (url: string): string[] => ['--base-url', url, '--api-key', 'k', '--map-tokens', '0', '--json'];
const printed = (events: Array<Record<string, any>>): string[] => events.filter((e) => e.type === 'info').map((e) => String(e.message));

describe('/model switches the whole profile', () => {
  it('changes the context window /tokens reports, the edit format and what /settings shows', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const repo = gitRepo({ 'a.py': 'x = 1\n' });
    const stdin = ['/tokens', '/model gpt-4o-mini', '/tokens', '/settings', '/ask what is x?'].join('\n') + '\n';
    const run = await runCli([...base(server.url), '--model', 'gpt-4.1', 'a.py'], { cwd: repo, stdin });
    expect(run.code, run.stderr).toBe(0);
    const [before, switched, after, settings] = printed(run.events());
    expect(before).toMatch(/room left\s+\d+ of 1047576/);
    expect(switched).toBe('The model is now gpt-4o-mini: context window 128,000 tokens, edit format whole. The weak-model follows: gpt-4o-mini; the editor-model follows: gpt-4o-mini.');
    expect(after).toMatch(/room left\s+\d+ of 128000/);
    expect(settings).toMatch(/^model\s+gpt-4o-mini\s+\(\/model in this chat\)$/m);
    expect(settings).toMatch(/^weak-model\s+gpt-4o-mini\s+\(\/model in this chat\)$/m);
    expect(settings).toMatch(/^edit-format\s+whole\s+\(\/model in this chat\)$/m);
    expect(settings).toMatch(/^context-window\s+128000\s+\(\/model in this chat\)$/m);
    expect(server.chatRequests('gpt-4o-mini').filter((r) => JSON.stringify(r.body.messages.at(-1)).includes('what is x?'))).toHaveLength(1);
    expect(server.chatRequests('gpt-4.1')).toHaveLength(0);
  });

  it('keeps an edit format and a weak model the user chose', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const repo = gitRepo({ 'a.py': 'x = 1\n' });
    const stdin = ['/model gpt-4o-mini', '/settings', '/weak-model cheap-one', '/settings'].join('\n') + '\n';
    const run = await runCli([...base(server.url), '--model', 'gpt-4.1', '--edit-format', 'udiff', '--weak-model', 'w'], { cwd: repo, stdin });
    expect(run.code, run.stderr).toBe(0);
    const [switched, settings, weak, later] = printed(run.events());
    expect(switched).toBe('The model is now gpt-4o-mini: context window 128,000 tokens, edit format udiff. The editor-model follows: gpt-4o-mini.');
    expect(settings).toMatch(/^edit-format\s+udiff\s+\(command line\)$/m);
    expect(settings).toMatch(/^weak-model\s+w\s+\(command line\)$/m);
    expect(weak).toBe('The weak-model is now cheap-one: context window 32,768 tokens, not in the model settings, so defaults apply.');
    expect(later).toMatch(/^weak-model\s+cheap-one\s+\(\/weak-model in this chat\)$/m);
  });

  it('checks the next request against the new model’s context window', async () => {
    server = await startFakeOpenAI({ fallback: textReply('Fine.') });
    const repo = gitRepo({ 'big.py': 'value = "a fairly long line of python code"\n'.repeat(100) });
    const stdin = ['/ask explain big.py', '/model gpt-4o', '/ask explain big.py'].join('\n') + '\n';
    const run = await runCli([...base(server.url), '--model', 'tiny-local', '--context-window', '300', 'big.py'], { cwd: repo, stdin });
    // (The run's exit code over several requests is the integrity issue's; what matters here is what was sent.)
    const questions = run.events().filter((e) => e.type === 'question');
    expect(questions).toHaveLength(1);
    expect(questions[0]!.text).toContain('context window of 300');
    expect(server.chatRequests('tiny-local')).toHaveLength(0);
    expect(server.chatRequests('gpt-4o')).toHaveLength(1);
  });

  it('sends cache_control only to Anthropic models, cache_prompt only to a local unpriced model, and shows the cached share', async () => {
    const cached = { prompt_tokens: 1000, completion_tokens: 10, cached_tokens: 400 };
    server = await startFakeOpenAI({ fallback: textReply('Fine.', { usage: cached }) });
    const repo = gitRepo({ 'a.py': 'x = 1\n' });
    const stdin = ['/ask one', '/model anthropic/claude-sonnet-4', '/ask two', '/model qwen2.5-coder', '/ask three', '/tokens'].join('\n') + '\n';
    const run = await runCli(['--base-url', server.url, '--api-key', 'k', '--map-tokens', '0', '--model', 'gpt-4o'], { cwd: repo, stdin });
    expect(run.code, run.stderr).toBe(0);
    const [gpt, claude, qwen] = ['gpt-4o', 'anthropic/claude-sonnet-4', 'qwen2.5-coder'].map((m) => server!.chatRequests(m)[0]!.body);
    expect(JSON.stringify(gpt)).not.toContain('cache_control');
    expect(gpt).not.toHaveProperty('cache_prompt');
    expect(claude.messages[0].content[0]).toMatchObject({ type: 'text', cache_control: { type: 'ephemeral' } });
    expect(claude.messages.at(-1).content[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(claude).not.toHaveProperty('cache_prompt');
    const marked = claude.messages.filter((m: any) => Array.isArray(m.content)).length;
    expect(marked).toBeGreaterThanOrEqual(2);
    expect(marked).toBeLessThanOrEqual(4); // Anthropic's limit
    expect(qwen.cache_prompt).toBe(true);
    expect(JSON.stringify(qwen)).not.toContain('cache_control');
    expect(run.stderr).toContain('Tokens: 1000 sent (400 cached, 40%), 10 received.');
    expect(run.stderr + run.stdout).toMatch(/cached\s+1200 of 3000 prompt tokens so far \(40%\)/);
  });
});
