// Prompt-cache reuse: the scripted chat of cache-chat.ts through the built CLI, and per request the
// share of its prompt tokens (o200k) that repeat the previous request's prompt from the first token,
// which is what providers bill at the cached price and local servers skip recomputing.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTokenizerPool } from '../src/model/tokens.js';
import { CHAT_STEPS, MAIN_MODEL, chatArgs, chatRepo, chatServer, chatStdin, promptReuse, promptText, type PromptMessage, type RequestReuse } from './cache-chat.js';
import { RESUME_REUSE_TARGET, RESUME_RUNS, runResumeChain, summarizeResumeChain } from './cache-resume.js';
import { builtPaths, type BenchRow, type SectionContext, type SectionResult } from './measure.js';

export const REUSE_TARGET = 0.85;

export interface CacheChatRun {
  readonly code: number | null;
  readonly stderr: string;
  readonly events: Array<Record<string, unknown>>;
  /** The main model's prompts, in order. */
  readonly prompts: PromptMessage[][];
}

/** Runs the scripted chat once in a fresh repository. */
export async function runCacheChat(packageRoot: string, pathEnv: string): Promise<CacheChatRun> {
  const repo = await chatRepo();
  const server = await chatServer();
  const home = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-home-'));
  await mkdir(home, { recursive: true });
  try {
    const child = spawn(process.execPath, [builtPaths(packageRoot).cli, ...chatArgs(server.url)], {
      cwd: repo.root,
      env: { PATH: pathEnv, HOME: home, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.end(chatStdin());
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    const events = stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    const prompts = server.chatRequests(MAIN_MODEL).map((request) => (request.body as { messages: PromptMessage[] }).messages);
    return { code, stderr, events, prompts };
  } finally {
    await server.close();
    await rm(repo.root, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}

export interface CacheSummary {
  readonly perRequest: RequestReuse[];
  /** Reused over prompt tokens of requests 2..N (the first has nothing to reuse). */
  readonly overall: number;
  readonly editsExpected: number;
  readonly editsApplied: number;
  readonly editsFailed: number;
}

export function summarizeCacheChat(run: CacheChatRun, count: (text: string) => number): CacheSummary {
  const perRequest = promptReuse(run.prompts.map(promptText), count);
  const later = perRequest.slice(1);
  const overall = later.reduce((s, r) => s + r.reusedTokens, 0) / Math.max(1, later.reduce((s, r) => s + r.promptTokens, 0));
  const edits = run.events.filter((e) => e['type'] === 'edit');
  return {
    perRequest,
    overall,
    editsExpected: CHAT_STEPS.reduce((s, step) => s + step.edits, 0),
    editsApplied: edits.filter((e) => e['status'] === 'applied').length,
    editsFailed: edits.filter((e) => e['status'] !== 'applied').length,
  };
}

export async function runCacheBench(ctx: SectionContext): Promise<SectionResult> {
  const run = await runCacheChat(ctx.packageRoot, ctx.pathEnv);
  if (run.code !== 0) throw new Error(`the scripted chat exited ${run.code}: ${run.stderr.trim().split('\n').at(-1) ?? ''}`);
  const chain = await runResumeChain(ctx.packageRoot, ctx.pathEnv);
  const failed = chain.runs.findIndex((r) => r.code !== 0);
  if (failed >= 0) throw new Error(`resumed run ${failed + 1} exited ${chain.runs[failed]!.code}: ${chain.runs[failed]!.stderr.trim().split('\n').at(-1) ?? ''}`);
  const pool = createTokenizerPool();
  try {
    const count = (text: string): number => pool.counterFor('gpt-4o').count(text);
    const summary = summarizeCacheChat(run, count);
    const resumed = summarizeResumeChain(chain, count);
    const percent = (r: RequestReuse): string => `${Math.round((100 * r.reusedTokens) / Math.max(1, r.promptTokens))}%`;
    const rows: BenchRow[] = [
      {
        metric: `scripted chat, ${summary.perRequest.length} requests, map on: prompt tokens repeating the previous prefix`,
        value: summary.overall * 100,
        unit: '%',
        target: `>= ${REUSE_TARGET * 100}%`,
        ok: summary.overall >= REUSE_TARGET && summary.editsApplied === summary.editsExpected && summary.editsFailed === 0,
      },
      { metric: `per request (prompt tokens): ${summary.perRequest.map((r) => `${percent(r)} of ${r.promptTokens}`).join(', ')}`, value: summary.perRequest.length, unit: 'requests' },
      { metric: `edits landed on the current file`, value: summary.editsApplied, unit: `of ${summary.editsExpected}`, ok: summary.editsApplied === summary.editsExpected && summary.editsFailed === 0 },
      {
        metric: `${RESUME_RUNS} one-shot runs chained with --resume: prompt tokens repeating the previous prefix`,
        value: resumed.overall * 100,
        unit: '%',
        target: `>= ${RESUME_REUSE_TARGET * 100}%`,
        ok: resumed.overall >= RESUME_REUSE_TARGET,
      },
      { metric: `per resumed run (prompt tokens): ${resumed.perRequest.map((r) => `${percent(r)} of ${r.promptTokens}`).join(', ')}`, value: resumed.perRequest.length, unit: 'requests' },
    ];
    return { name: 'cache', rows, notes: ['Overall counts requests 2..N; the first has no previous prompt.', 'Resumed runs: each a new process (`--message ... --resume`), against one fake server.'], details: { chat: summary, resumed } };
  } finally {
    pool.free();
  }
}
