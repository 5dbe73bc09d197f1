// Issue 26: every request traced over OTLP/HTTP to a real receiver on loopback. The built CLI runs a
// scripted request (an edit, a failing lint, a fix) and the spans that arrive must form the tree
// session → request → model call / edit round → commit, lint / reflection → … with their attributes and
// statuses. A repository cannot send the trace anywhere; an unreachable collector is one warning.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli } from '../support/cli.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { searchReplace } from '../support/replies.js';
import { gitRepo, read, writeFiles } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await server?.close();
  await receiver?.close();
  server = receiver = undefined;
});

const files = {
  'calc.py': 'def add(a, b):\n    return a + b\n',
  // The lint fails while the file says "bad", so the first reply fails it and the second fixes it.
  'lint.sh': 'for f in "$@"; do if grep -q bad "$f"; then echo "$f:2: bad word"; exit 1; fi; done\n',
};
const breaking = searchReplace('calc.py', '    return a + b\n', '    return a + b  # bad\n');
const fixing = searchReplace('calc.py', '    return a + b  # bad\n', '    return a + b  # good\n');

function args(extra: string[]): string[] {
  return ['--no-stream', '--base-url', server!.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '--yes-always', '--lint-cmd', 'sh lint.sh', ...extra, '-m', 'edit calc', 'calc.py'];
}

const byName = (spans: readonly ReceivedSpan[], name: string): ReceivedSpan[] => spans.filter((s) => s.name === name);
const childrenOf = (spans: readonly ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] =>
  spans.filter((s) => s.parentSpanId === parent.spanId).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));

describe('tracing over OTLP/HTTP', () => {
  it('sends the span tree of a request with an edit, a failing lint and its fix', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply(breaking, { usage: { prompt_tokens: 900, completion_tokens: 40, cached_tokens: 300 } }), textReply(fixing)] }, fallback: textReply('fix: adjust code') });
    receiver = await startOtlpReceiver();
    const repo = gitRepo(files);
    const result = await runCli(args(['--otlp-endpoint', receiver.url]), { cwd: repo });

    expect(result.code, result.stderr).toBe(0);
    expect(read(repo, 'calc.py')).toContain('# good');
    expect(result.stderr).not.toMatch(/warning: tracing/);
    expect(receiver.requests.every((r) => r.path === '/v1/traces' && r.contentType.startsWith('application/json'))).toBe(true);
    const spans = receiver.spans;
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);

    const [session, ...moreSessions] = byName(spans, 'tandem session');
    expect(moreSessions).toHaveLength(0);
    expect(session!.parentSpanId).toBe('');
    expect(session!.resource['service.name']).toBe('tandem');
    expect(session!.attributes['tandem.session.model']).toBe('m');

    const [request] = childrenOf(spans, session!);
    expect(request!.name).toBe('tandem request');
    expect(request!.status.code).toBe(1);
    expect(request!.attributes['tandem.request.status']).toBe('completed');
    expect(request!.attributes['tandem.request.text']).toBeUndefined();
    expect(childrenOf(spans, request!).map((s) => s.name)).toEqual(['chat m', 'edit round', 'reflection 1']);

    const [call, round, reflection] = childrenOf(spans, request!);
    expect(call!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'm',
      'gen_ai.usage.input_tokens': 900,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.usage.cache_read.input_tokens': 300,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    expect(call!.attributes['tandem.time_to_first_token_ms']).toEqual(expect.any(Number));
    expect(call!.attributes['gen_ai.output.messages']).toBeUndefined();
    expect(call!.status.code).toBe(1);

    expect(round!.status).toMatchObject({ code: 2 });
    expect(round!.attributes).toMatchObject({ 'tandem.edit.files': ['calc.py'], 'tandem.edit.blocks': 1, 'tandem.edit.failures': 0, 'tandem.edit.rungs': ['exact'] });
    const [commit, lint] = childrenOf(spans, round!);
    expect(commit!.name).toBe('commit');
    expect(commit!.attributes['tandem.commit.hash']).toMatch(/^[0-9a-f]{40}$/);
    expect(lint!.name).toBe('lint');
    expect(lint!.status.code).toBe(2);
    expect(lint!.attributes).toMatchObject({ 'process.exit.code': 1, 'tandem.check.command': 'sh lint.sh ./calc.py' });
    expect(lint!.attributes['tandem.duration_ms']).toEqual(expect.any(Number));

    expect(reflection!.attributes).toMatchObject({ 'tandem.reflection.n': 1, 'tandem.reflection.reason': 'lint' });
    const [fixCall, fixRound] = childrenOf(spans, reflection!);
    expect(fixCall!.name).toBe('chat m');
    expect(fixRound!.name).toBe('edit round');
    expect(fixRound!.status.code).toBe(1);
    expect(childrenOf(spans, fixRound!).map((s) => [s.name, s.status.code])).toEqual([['commit', 1], ['lint', 1]]);

    // Every child lies within its parent's time.
    for (const span of spans.filter((s) => s.parentSpanId !== '')) {
      const parent = spans.find((s) => s.spanId === span.parentSpanId)!;
      expect(span.start >= parent.start && span.end <= parent.end, `${span.name} within ${parent.name}`).toBe(true);
    }
  });

  it('puts prompt and reply text in the spans only with --otlp-content', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('Nothing to change.')] } });
    receiver = await startOtlpReceiver();
    const repo = gitRepo(files);
    const result = await runCliInProcess(args(['--otlp-endpoint', `${receiver.url}/v1/traces`, '--otlp-content', '--otlp-headers', 'x-team=blue']), { cwd: repo });

    expect(result.code, result.stderr).toBe(0);
    const call = byName(receiver.spans, 'chat m')[0]!;
    expect(JSON.parse(String(call.attributes['gen_ai.output.messages']))[0].parts[0].content).toBe('Nothing to change.');
    expect(String(call.attributes['gen_ai.input.messages'])).toContain('edit calc');
    expect(receiver.requests.every((r) => r.headers['x-team'] === 'blue')).toBe(true);
  });

  it('sends nothing to an endpoint that a repository names in its .env or config', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply('Nothing to change.')] } });
    receiver = await startOtlpReceiver();
    const repo = gitRepo(files);
    writeFiles(repo, {
      '.env': `OTEL_EXPORTER_OTLP_ENDPOINT=${receiver.url}\nOTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${receiver.url}/v1/traces\nTANDEM_OTLP_ENDPOINT=${receiver.url}\n`,
      '.tandem.conf.yml': `otlp-endpoint: ${receiver.url}\notlp-content: true\n`,
    });
    const result = await runCliInProcess(args([]), { cwd: repo });

    expect(result.code, result.stderr).toBe(0);
    expect(server.chatRequests('m')).toHaveLength(1);
    expect(result.stderr).toMatch(/otlp-endpoint: ignored; only your own config or flags can set otlp-endpoint/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('completes the request against an unreachable collector and warns once', async () => {
    server = await startFakeOpenAI({ replies: { m: [textReply(breaking), textReply(fixing)] }, fallback: textReply('fix: adjust code') });
    const closedPort = await freePort();
    const repo = gitRepo(files);
    const result = await runCliInProcess(args(['--json']), { cwd: repo, env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closedPort}` } });

    expect(result.code, result.stderr).toBe(0);
    expect(read(repo, 'calc.py')).toContain('# good');
    expect(result.events().at(-1)).toMatchObject({ type: 'result', status: 'completed' });
    const warnings = result.stderr.split('\n').filter((line) => line.includes('warning'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`could not send traces to http://127.0.0.1:${closedPort}/v1/traces`);
  });
});

/** A loopback port nothing listens on (bound, then closed). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
