// Prompt-cache reuse across processes: the first requests of the scripted chat (cache-chat.ts), each
// in its own one-shot run, every run after the first continuing the last with `--resume`. A script,
// an editor or an agent that calls tandem once per request pays for the whole prompt again unless the
// resumed run starts its prompt with the previous run's, byte for byte.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CHAT_FILE, CHAT_STEPS, MAIN_MODEL, chatArgs, chatRepo, chatServer, promptReuse, promptText, type PromptMessage, type RequestReuse } from './cache-chat.js';
import { builtPaths } from './measure.js';

export const RESUME_RUNS = 4;
export const RESUME_REUSE_TARGET = 0.9;

export interface ResumeChainRun {
  /** Each run's exit code and the last line of its stderr, in order. */
  readonly runs: Array<{ code: number | null; stderr: string }>;
  /** The main model's prompts, in order (one per run, more when a run reflects). */
  readonly prompts: PromptMessage[][];
}

function runOnce(cli: string, args: readonly string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** The arguments of run `i`: the chat's usual ones, its request, and `--resume` after the first. */
export function resumeRunArgs(serverUrl: string, i: number): string[] {
  const base = chatArgs(serverUrl).filter((arg) => arg !== CHAT_FILE);
  return [...base, '--message', CHAT_STEPS[i]!.input, ...(i === 0 ? [CHAT_FILE] : ['--resume'])];
}

/** `count` one-shot runs chained with --resume in a fresh repository, against one scripted server. */
export async function runResumeChain(packageRoot: string, pathEnv: string, count = RESUME_RUNS): Promise<ResumeChainRun> {
  const repo = await chatRepo();
  const server = await chatServer();
  const home = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-home-'));
  const env = { PATH: pathEnv, HOME: home, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1' };
  try {
    const runs: ResumeChainRun['runs'] = [];
    for (let i = 0; i < count; i++) runs.push(await runOnce(builtPaths(packageRoot).cli, resumeRunArgs(server.url, i), repo.root, env));
    const prompts = server.chatRequests(MAIN_MODEL).map((request) => (request.body as { messages: PromptMessage[] }).messages);
    return { runs, prompts };
  } finally {
    await server.close();
    await rm(repo.root, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}

export interface ResumeSummary {
  readonly perRequest: RequestReuse[];
  /** Reused over prompt tokens of requests 2..N. */
  readonly overall: number;
}

export function summarizeResumeChain(run: ResumeChainRun, count: (text: string) => number): ResumeSummary {
  const perRequest = promptReuse(run.prompts.map(promptText), count);
  const later = perRequest.slice(1);
  const overall = later.reduce((s, r) => s + r.reusedTokens, 0) / Math.max(1, later.reduce((s, r) => s + r.promptTokens, 0));
  return { perRequest, overall };
}
