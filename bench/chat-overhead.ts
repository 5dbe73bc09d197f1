// Per-request overhead in the chat: one tandem process fed requests on stdin (as a scripted REPL),
// on the real Python tree with its tag cache warm, against the fake server answering instantly with
// text. Requests then leave as fast as tandem can turn a reply into the next request: the gap
// between two arrivals at the server is tandem's own cost from the end of one reply (Enter) to the
// next request leaving.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startFakeOpenAI, textReply } from '../test/support/fake-openai-server.js';
import { builtPaths, median, type BenchRow, type SectionContext, type SectionResult } from './measure.js';
import { generateTree, realPythonTree } from './repomap-trees.js';

const run = promisify(execFile);

export const OVERHEAD_TARGET_MS = 150;

/** A source tree as a committed git repository (made once under the bench cache). */
export async function chatRepo(cacheDir: string, quick: boolean): Promise<{ repo: string; chatFile: string }> {
  const repo = path.join(cacheDir, quick ? 'chat-generated-v1' : 'chat-python-v1');
  const chatFile = quick ? 'pkg0/module_1.py' : 'stdlib/json/decoder.py';
  if (existsSync(path.join(repo, '.complete'))) return { repo, chatFile };
  const source = quick ? await generateTree(cacheDir, { files: 40, megabytes: 1 }) : (await realPythonTree(cacheDir)).path;
  await rm(repo, { recursive: true, force: true });
  await cp(source, repo, { recursive: true, filter: (source) => !source.includes(`${path.sep}.tandem`) && !source.endsWith(`${path.sep}.git`) });
  const git = (...args: string[]) => run('git', args, { cwd: repo, maxBuffer: 256 * 1024 * 1024 });
  await git('init', '-q');
  await git('config', 'user.name', 'Bench');
  await git('config', 'user.email', 'bench@example.com');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'initial');
  await writeFile(path.join(repo, '.git', 'info', 'exclude'), '.complete\n', { flag: 'a' });
  await writeFile(path.join(repo, '.complete'), '');
  return { repo, chatFile };
}

export interface OverheadResult {
  readonly files: number;
  readonly gapsMs: number[];
  readonly medianMs: number;
}

/** Runs `requests` text-only requests in one process; the gaps between consecutive arrivals. */
export async function measureChatOverhead(packageRoot: string, cacheDir: string, pathEnv: string, quick: boolean, requests = 11): Promise<OverheadResult> {
  const { repo, chatFile } = await chatRepo(cacheDir, quick);
  const arrivals: number[] = [];
  const step = () => {
    arrivals.push(performance.now());
    return textReply('Noted.', { usage: { prompt_tokens: 1000, completion_tokens: 2 } });
  };
  const server = await startFakeOpenAI({ replies: { main: Array.from({ length: requests }, () => step) } });
  const home = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-home-'));
  const env = { PATH: pathEnv, HOME: home, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1' };
  const args = ['--base-url', server.url, '--api-key', 'bench', '--model', 'main', '--weak-model', 'weak', '--no-stream', '--yes-always',
    '--map-tokens', '1024', '--context-window', '128000'];
  try {
    // Warm the tag cache first, as a chat that has run before would find it.
    await run(process.execPath, [builtPaths(packageRoot).cli, ...args, '--show-repo-map', chatFile], { cwd: repo, env, maxBuffer: 64 * 1024 * 1024 });
    const child = spawn(process.execPath, [builtPaths(packageRoot).cli, ...args, chatFile], { cwd: repo, env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.end(`${Array.from({ length: requests }, (_, i) => `question number ${i + 1}, answer briefly`).join('\n')}\n`);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0 || arrivals.length !== requests) throw new Error(`the chat exited ${code} after ${arrivals.length} requests: ${stderr.trim().split('\n').at(-1) ?? ''}`);
  } finally {
    await server.close();
    await rm(home, { recursive: true, force: true });
  }
  // The first request also loads the cache and builds the map: only the later gaps are per-request overhead.
  const gapsMs = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
  const files = Number((await run('git', ['ls-files'], { cwd: repo, maxBuffer: 64 * 1024 * 1024 })).stdout.split('\n').filter(Boolean).length);
  return { files, gapsMs, medianMs: median(gapsMs) };
}

export function overheadRow(result: OverheadResult): BenchRow {
  return {
    metric: `chat, ${result.files}-file ${result.files > 1000 ? 'real Python' : 'generated'} repo, warm map: Enter to request leaving (median of ${result.gapsMs.length})`,
    value: result.medianMs,
    unit: 'ms',
    target: `<= ${OVERHEAD_TARGET_MS} ms`,
    ok: result.medianMs <= OVERHEAD_TARGET_MS,
  };
}

export async function runChatOverheadBench(ctx: SectionContext): Promise<SectionResult> {
  const result = await measureChatOverhead(ctx.packageRoot, ctx.cacheDir, ctx.pathEnv, ctx.quick);
  return {
    name: 'chat',
    rows: [overheadRow(result)],
    notes: ['gaps between consecutive requests of one process fed on stdin, the server answering at once with text'],
    details: result,
  };
}
