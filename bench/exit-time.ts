// How long a finished run keeps a script waiting: the time from the `result` event on stdout to the
// process's exit, for a one-shot request with the repo map on (its workers must not keep it alive).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startFakeOpenAI, textReply } from '../test/support/fake-openai-server.js';
import { builtPaths, median, type SectionContext, type SectionResult } from './measure.js';
import { HELLO_PATH, smallRepo } from './one-shot.js';

const EDIT = [HELLO_PATH, '```python', '<<<<<<< SEARCH', '    print("hello")', '=======', '    print("hello, world")', '>>>>>>> REPLACE', '```', ''].join('\n');

/** Milliseconds between the `result` line arriving and the process exiting. */
function resultToExit(cli: string, args: readonly string[], cwd: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let resultAt: number | null = null;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (resultAt === null && out.includes('"type":"result"')) resultAt = performance.now();
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('exit', (code) => {
      if (resultAt === null || code !== 0) reject(new Error(`one-shot exited ${code} without a result: ${out.slice(-300)}`));
      else resolve(performance.now() - resultAt);
    });
  });
}

export async function runExitTimeBench(ctx: SectionContext): Promise<SectionResult> {
  const runs = ctx.quick ? 1 : 7;
  const server = await startFakeOpenAI({ fallback: (request) => (request.model === 'bench-weak' ? textReply('bench: greet') : textReply(EDIT)) });
  const home = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-home-'));
  const repo = await smallRepo();
  try {
    const env = { PATH: ctx.pathEnv, HOME: home, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1' };
    const args = ['--message', 'Greet the world', '--json', '--yes-always', '--no-stream', '--base-url', server.url, '--api-key', 'bench',
      '--model', 'bench-main', '--weak-model', 'bench-weak', '--map-tokens', '1024', HELLO_PATH];
    const { cli } = builtPaths(ctx.packageRoot);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      await repo.reset();
      times.push(await resultToExit(cli, args, repo.root, env));
    }
    const value = median(times);
    ctx.log(`exit times: ${times.map((t) => t.toFixed(0)).join(' ')}`);
    return {
      name: 'exit',
      rows: [{ metric: 'one-shot with map: result event to process exit', value, unit: 'ms', target: '<= 200 ms', ok: value <= 200 }],
      notes: [`median of ${runs} one-shot requests on a small repository with the repo map on`],
    };
  } finally {
    await server.close();
    await rm(home, { recursive: true, force: true });
    await rm(repo.root, { recursive: true, force: true });
  }
}
