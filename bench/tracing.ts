// What tracing costs: a session that starts and leaves (no request) and a one-shot request, each with
// tracing off and with spans sent over OTLP/HTTP to a receiver on loopback, interleaved in one run so
// the ratios compare like with like. The receiver counts the spans, so "on" is shown to have sent them.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { builtPaths, median, ratioRow, runNode, type SectionContext, type SectionResult } from './measure.js';
import { smallRepo, startRequestRunner } from './one-shot.js';

interface Receiver {
  readonly url: string;
  spans(): number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  let spans = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: unknown[] }> }> };
        for (const resource of body.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans += scope.spans?.length ?? 0;
      } catch {
        // counted as nothing
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans: () => spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export async function runTracingBench(ctx: SectionContext): Promise<SectionResult> {
  const runs = ctx.quick ? 1 : 7;
  const receiver = await startReceiver();
  const traced = ['--otlp-endpoint', receiver.url];
  const off = await startRequestRunner(ctx);
  const on = await startRequestRunner(ctx, traced);
  const repo = await smallRepo();
  const { cli } = builtPaths(ctx.packageRoot);
  const home = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-home-'));
  const env = { PATH: ctx.pathEnv, NO_COLOR: '1', HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
  // A session with no request: empty stdin, so it starts, reads nothing and leaves.
  const session = async (extra: readonly string[]): Promise<number> => {
    const result = await runNode([cli, '--map-tokens', '0', '--base-url', off.server.url, '--api-key', 'bench', ...extra], { cwd: repo.root, env });
    if (result.code !== 0) throw new Error(`tandem (no request) exited ${result.code}: ${result.stderr.trim().slice(0, 300)}`);
    return result.ms;
  };
  try {
    const times = { sessionOff: [] as number[], sessionOn: [] as number[], requestOff: [] as number[], requestOn: [] as number[] };
    await session([]);
    await session(traced);
    for (let round = 0; round < runs + 1; round++) {
      const timed = round > 0; // the first round warms the caches
      const record = (list: number[], ms: number): void => void (timed && list.push(ms));
      record(times.sessionOff, await session([]));
      record(times.sessionOn, await session(traced));
      await repo.reset();
      record(times.requestOff, (await off.request(repo)).ms);
      await repo.reset();
      record(times.requestOn, (await on.request(repo)).ms);
    }
    const sessionOff = { label: 'tracing off', value: median(times.sessionOff) };
    const requestOff = { label: 'tracing off', value: median(times.requestOff) };
    return {
      name: 'tracing',
      rows: [
        { metric: 'session start and exit, tracing off', value: sessionOff.value, unit: 'ms' },
        ratioRow('session start and exit, tracing on (loopback OTLP)', median(times.sessionOn), 'ms', sessionOff),
        { metric: 'one-shot request, tracing off', value: requestOff.value, unit: 'ms' },
        ratioRow('one-shot request, tracing on (loopback OTLP)', median(times.requestOn), 'ms', requestOff),
        { metric: 'spans received', value: receiver.spans(), unit: 'spans' },
      ],
      notes: [`median of ${runs} runs each, off and on interleaved; the SDK is loaded only when tracing is on`],
    };
  } finally {
    await off.close();
    await on.close();
    await receiver.close();
    await rm(repo.root, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}
