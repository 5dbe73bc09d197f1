// Per-request overhead: a whole one-shot request (edit applied, commit message from the weak model,
// commit) through the built CLI against the fake server, on a small repo and on a large generated
// repo whose repo-map cache is warm. The fake answers at once, so the wall time is tandem's own cost.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../test/support/fake-openai-server.js';
import { builtPaths, median, ratioRow, runNode, type ChildRun, type SectionContext, type SectionResult } from './measure.js';
import { generateTree } from './repomap-trees.js';

const run = promisify(execFile);

export const HELLO_PATH = 'app/hello.py';
const HELLO = 'def hello():\n    print("hello")\n';
const EDIT = ['Changing the greeting.', '', HELLO_PATH, '```python', '<<<<<<< SEARCH', '    print("hello")', '=======',
  '    print("hello, world")', '>>>>>>> REPLACE', '```', ''].join('\n');

/** A git work tree ready for repeated requests: `reset` puts it back to the first commit. */
export interface BenchRepo {
  readonly root: string;
  readonly files: number;
  reset(): Promise<void>;
}

/** The tandem and git processes of one request, with a private HOME so no user config leaks in. */
export interface RequestRunner {
  readonly server: FakeOpenAIServer;
  request(repo: BenchRepo, options?: { rssProbe?: string }): Promise<ChildRun>;
  /** The git processes one request on `repo` starts (counted by a `git` first on PATH that logs and runs the real one). */
  countGit(repo: BenchRepo): Promise<number>;
  /** Empties the private HOME's caches (the user's shared tag cache among them): the next request maps cold. */
  forgetUserCaches(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A `git` that writes one line per call to `log` and runs the real git found on `pathEnv`. Its folder name
 * must not hold the API key (`bench`): tandem leaves any variable holding it, PATH too, out of git's environment.
 */
async function gitCounter(pathEnv: string): Promise<{ dir: string; log: string }> {
  const real = pathEnv.split(path.delimiter).map((dir) => path.join(dir, 'git')).find((file) => existsSync(file));
  if (!real) throw new Error('no git on PATH');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-gitcount-'));
  const log = path.join(dir, 'calls.log');
  await writeFile(path.join(dir, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  return { dir, log };
}

async function git(root: string, ...args: string[]): Promise<string> {
  return (await run('git', args, { cwd: root, maxBuffer: 64 * 1024 * 1024 })).stdout;
}

async function commitAll(root: string): Promise<void> {
  await git(root, 'init', '-q');
  await git(root, 'config', 'user.name', 'Bench');
  await git(root, 'config', 'user.email', 'bench@example.com');
  await git(root, 'add', '-A');
  await git(root, 'commit', '-q', '-m', 'initial');
}

async function asBenchRepo(root: string): Promise<BenchRepo> {
  const initial = (await git(root, 'rev-list', '--max-parents=0', 'HEAD')).trim();
  const files = (await git(root, 'ls-files')).split('\n').filter(Boolean).length;
  return { root, files, reset: async () => void (await git(root, 'reset', '-q', '--hard', initial)) };
}

/** A two-file repository in a fresh temp folder. */
export async function smallRepo(): Promise<BenchRepo> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-small-'));
  await mkdir(path.join(root, 'app'));
  await writeFile(path.join(root, HELLO_PATH), HELLO);
  await writeFile(path.join(root, 'app', 'util.py'), 'def shout(text):\n    return text.upper()\n');
  await commitAll(root);
  return asBenchRepo(root);
}

/** The generated tree (cached under cacheDir) plus app/hello.py, committed once. */
export async function largeRepo(cacheDir: string, size: { files: number; megabytes: number }): Promise<BenchRepo> {
  const root = await generateTree(path.join(cacheDir, 'one-shot'), size);
  const committed = existsSync(path.join(root, '.git')) && (await git(root, 'rev-parse', '--verify', '-q', 'HEAD').then(() => true, () => false));
  if (!committed) {
    // A run interrupted before its first commit leaves a half-made repository: start it again.
    await rm(path.join(root, '.git'), { recursive: true, force: true });
    await mkdir(path.join(root, 'app'), { recursive: true });
    await writeFile(path.join(root, HELLO_PATH), HELLO);
    await commitAll(root);
  }
  return asBenchRepo(root);
}

export function largeSize(quick: boolean): { files: number; megabytes: number } {
  return quick ? { files: 30, megabytes: 0.3 } : { files: 1600, megabytes: 30 };
}

/** `extraArgs` go after the usual ones (the tracing section adds --otlp-endpoint). */
export async function startRequestRunner(ctx: SectionContext, extraArgs: readonly string[] = []): Promise<RequestRunner> {
  // Any number of requests: the weak model writes the commit message, the main model the edit.
  const server = await startFakeOpenAI({
    fallback: (request) => (request.model === 'bench-weak' ? textReply('bench: greet the world') : textReply(EDIT)),
  });
  const home = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-home-'));
  const { cli } = builtPaths(ctx.packageRoot);
  const env = { PATH: ctx.pathEnv, HOME: home, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1' };
  const args = ['--message', 'Greet the world', '--yes-always', '--no-stream', '--base-url', server.url,
    '--api-key', 'bench', '--model', 'bench-main', '--weak-model', 'bench-weak', ...extraArgs, HELLO_PATH];
  const counter = await gitCounter(ctx.pathEnv);
  const request = async (repo: BenchRepo, options: { rssProbe?: string; env?: Record<string, string> } = {}): Promise<ChildRun> => {
    const result = await runNode([cli, ...args], { cwd: repo.root, env: options.env ?? env, rssProbe: options.rssProbe });
    if (result.code !== 0) throw new Error(`one-shot request exited ${result.code}: ${result.stderr.trim().slice(0, 500)}`);
    return result;
  };
  return {
    server,
    request,
    async countGit(repo) {
      await repo.reset();
      await writeFile(counter.log, '');
      await request(repo, { env: { ...env, PATH: `${counter.dir}${path.delimiter}${ctx.pathEnv}` } });
      await repo.reset();
      return (await readFile(counter.log, 'utf8')).split('\n').filter(Boolean).length;
    },
    async forgetUserCaches() {
      await rm(path.join(home, '.cache'), { recursive: true, force: true });
    },
    async close() {
      await server.close();
      await rm(home, { recursive: true, force: true });
      await rm(counter.dir, { recursive: true, force: true });
    },
  };
}

/**
 * `runs` requests on `repo`, after `warmUps` untimed ones that fill the OS and repo-map caches.
 * `before` runs ahead of each timed request (a reference measured in the same stretch of time).
 */
export async function timeRequests(runner: RequestRunner, repo: BenchRepo, runs: number, warmUps = 1, rssProbe?: string, before?: () => Promise<void>): Promise<ChildRun[]> {
  for (let i = 0; i < warmUps; i++) {
    await repo.reset();
    await runner.request(repo);
  }
  const results: ChildRun[] = [];
  for (let round = 0; round < runs; round++) {
    await repo.reset();
    await before?.();
    results.push(await runner.request(repo, { rssProbe }));
  }
  await repo.reset();
  return results;
}

export async function runOneShotBench(ctx: SectionContext): Promise<SectionResult> {
  const runs = ctx.quick ? 1 : 7;
  const runner = await startRequestRunner(ctx);
  const small = await smallRepo();
  // Wall times come from plain runs; the CPU rows from runs of their own that carry the probe (its
  // preload costs a few ms of start-up, so it stays out of the wall times and of `node -e 0`). Quick mode
  // (the suite's smoke test) makes one probed run of each and reads both figures from it.
  const { rssProbe } = builtPaths(ctx.packageRoot);
  const cpuRuns = 3;
  const wallProbe = ctx.quick ? rssProbe : undefined;
  const probed = async (timed: ChildRun[], more: () => Promise<ChildRun[]>): Promise<ChildRun[]> => (ctx.quick ? timed : more());
  try {
    const env = { PATH: ctx.pathEnv };
    // `node -e 0` runs alternate with the small repository's timed requests, so the row's ratio compares
    // the same stretch of time on a shared machine (whose speed drifts by a fifth within minutes here).
    const nodeRuns: ChildRun[] = [];
    const nodeRun = async (): Promise<void> => void nodeRuns.push(await runNode(['-e', '0'], { env, rssProbe: wallProbe }));
    await runNode(['-e', '0'], { env });
    ctx.log('one-shot: small repository');
    // Quick mode skips the small repo's warm-up: it has no map cache worth warming.
    const smallTimed = await timeRequests(runner, small, runs, ctx.quick ? 0 : 1, wallProbe, nodeRun);
    const smallMs = median(smallTimed.map((r) => r.ms));
    const nodeCpu = await probed(nodeRuns, async () => {
      const more: ChildRun[] = [];
      for (let i = 0; i < cpuRuns; i++) more.push(await runNode(['-e', '0'], { env, rssProbe }));
      return more;
    });
    const reference = { label: 'node -e 0', value: median(nodeRuns.map((r) => r.ms)) };
    const cpuReference = { label: 'node -e 0 CPU', value: median(nodeCpu.map((r) => r.cpuMs)) };
    const smallRuns = await probed(smallTimed, () => timeRequests(runner, small, cpuRuns, 0, rssProbe));
    const smallGit = await runner.countGit(small);
    ctx.log('one-shot: large repository (warming the repo-map cache)');
    const large = await largeRepo(ctx.cacheDir, largeSize(ctx.quick));
    const largeTimed = await timeRequests(runner, large, runs, 1, wallProbe);
    const largeMs = median(largeTimed.map((r) => r.ms));
    const largeRuns = await probed(largeTimed, () => timeRequests(runner, large, cpuRuns, 0, rssProbe));
    const largeGit = await runner.countGit(large);
    return {
      name: 'one-shot',
      rows: [
        ratioRow('request, small repo', smallMs, 'ms', reference, { target: '<= 8x', ok: smallMs <= 8 * reference.value }),
        ratioRow('request, small repo: CPU (user + system)', median(smallRuns.map((r) => r.cpuMs)), 'ms', cpuReference),
        { metric: 'git processes per request, small repo', value: smallGit, unit: 'processes', target: '<= 4', ok: smallGit <= 4 },
        ratioRow(`request, ${large.files}-file repo, warm map`, largeMs, 'ms', reference),
        ratioRow(`request, ${large.files}-file repo, warm map: CPU (user + system)`, median(largeRuns.map((r) => r.cpuMs)), 'ms', cpuReference),
        { metric: `git processes per request, ${large.files}-file repo`, value: largeGit, unit: 'processes' },
        ratioRow('large / small', largeMs, 'ms', { label: 'small repo', value: smallMs }),
      ],
      notes: [
        `median of ${runs} requests each after one warm-up; each request = spawn, 2 model calls (edit + commit message), apply, commit`,
        'model time excluded: the fake server answers instantly in this process',
        `CPU: the child process alone (user + system), git children not included, median of ${ctx.quick ? 'the same' : cpuRuns} requests (quick mode: the timed ones, probe on); git processes counted in one more, untimed request`,
      ],
    };
  } finally {
    await runner.close();
    await rm(small.root, { recursive: true, force: true });
  }
}
