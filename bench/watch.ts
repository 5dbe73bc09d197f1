// Watch mode's idle cost: a headless `--watch-files` session on the largest real tree, left alone for
// 30 s, against a chat without watching on the same tree (both waiting, the map off so only the watcher
// differs): CPU in % of one core over the window, and resident memory beyond the plain chat.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chatRepo } from './chat-overhead.js';
import { builtPaths, type SectionContext, type SectionResult } from './measure.js';

export const IDLE_CPU_TARGET_PERCENT = 1;
export const WATCH_RSS_TARGET_MB = 100;
const CLOCK_TICKS = 100;

interface IdleFigures {
  readonly cpuPercent: number;
  readonly rssMb: number;
  /** From spawn until the session was ready (watching, or waiting for input). */
  readonly readyMs: number;
}

/** utime + stime of a process, in seconds (Linux /proc). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** Starts tandem with `args`, waits for `ready` in its JSON output, then measures `windowMs` of idling. */
async function measureIdle(ctx: SectionContext, repo: string, args: readonly string[], ready: (line: Record<string, unknown>) => boolean, windowMs: number): Promise<IdleFigures> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-home-'));
  const env = { PATH: ctx.pathEnv, HOME: home, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1' };
  const started = performance.now();
  // stdin stays open (a pipe nobody writes to): the plain chat waits for a line, the watcher ignores it.
  const child: ChildProcess = spawn(process.execPath, [builtPaths(ctx.packageRoot).cli, ...args], { cwd: repo, env, stdio: ['pipe', 'pipe', 'pipe'] });
  try {
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        if (lines.some((line) => line.trim() !== '' && ready(JSON.parse(line) as Record<string, unknown>))) resolve();
      });
      child.on('close', (code) => reject(new Error(`tandem exited ${code} before it was ready: ${stderr.trim().split('\n').at(-1) ?? ''}`)));
    });
    const readyMs = performance.now() - started;
    const pid = child.pid!;
    const before = cpuSeconds(pid);
    const from = performance.now();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const cpu = cpuSeconds(pid) - before;
    const elapsed = (performance.now() - from) / 1000;
    return { cpuPercent: (cpu / elapsed) * 100, rssMb: rssMb(pid), readyMs };
  } finally {
    // The plain chat ends at the end of its input; the watcher on SIGTERM.
    child.stdin?.end();
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('close', resolve)));
    await rm(home, { recursive: true, force: true });
  }
}

export async function runWatchBench(ctx: SectionContext): Promise<SectionResult> {
  const windowMs = ctx.quick ? 5000 : 30000;
  const { repo } = await chatRepo(ctx.cacheDir, ctx.quick);
  const files = readFileSync(path.join(repo, '.git', 'index')).readUInt32BE(8);
  const args = ['--json', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'bench', '--model', 'main', '--weak-model', 'weak', '--map-tokens', '0'];
  ctx.log('watch: a chat without watching, idle');
  const plain = await measureIdle(ctx, repo, args, (event) => event['type'] === 'session', windowMs);
  ctx.log('watch: --watch-files, idle');
  const watching = await measureIdle(ctx, repo, [...args, '--watch-files'], (event) => event['type'] === 'info' && String(event['message']).startsWith('Watching'), windowMs);
  const extraMb = watching.rssMb - plain.rssMb;
  return {
    name: 'watch',
    rows: [
      { metric: `idle --watch-files, ${files}-file repo, ${windowMs / 1000} s: CPU`, value: watching.cpuPercent, unit: '% of a core', target: `< ${IDLE_CPU_TARGET_PERCENT} %`, ok: watching.cpuPercent < IDLE_CPU_TARGET_PERCENT },
      { metric: `idle chat without watching, same repo: CPU`, value: plain.cpuPercent, unit: '% of a core' },
      { metric: `idle --watch-files: RSS beyond the chat without watching (${watching.rssMb.toFixed(0)} vs ${plain.rssMb.toFixed(0)} MB)`, value: extraMb, unit: 'MB', target: `< ${WATCH_RSS_TARGET_MB} MB`, ok: extraMb < WATCH_RSS_TARGET_MB },
      { metric: '--watch-files: start to watching (reading every file for AI comments, the watcher ready)', value: watching.readyMs, unit: 'ms' },
    ],
    notes: ['both sessions headless and idle, map off; CPU is user + system time of the tandem process over the window (/proc)'],
  };
}
