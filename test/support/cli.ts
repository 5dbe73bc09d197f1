// Spawns the built CLI as a user would, with a private HOME and no inherited model settings.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp-repo.js';

export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string; bin: { tandem: string } };
export const VERSION = PACKAGE.version;
/** The built CLI a user's `npx tandem` runs: package.json's `bin`, bundled by `npm run build`. */
export const CLI = join(PACKAGE_ROOT, PACKAGE.bin.tandem);

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON lines (only meaningful with --json). */
  events(): Array<Record<string, any>>;
}

export interface CliOptions {
  readonly cwd: string;
  readonly env?: Record<string, string>;
  readonly stdin?: string;
  readonly home?: string;
  /** Called once the process has started, e.g. to send it a signal later. */
  readonly onSpawn?: (pid: number) => void;
}

export function baseEnv(home: string): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    NO_COLOR: '1',
    GIT_CONFIG_NOSYSTEM: '1',
  };
}

export function runCli(args: readonly string[], options: CliOptions): Promise<CliRun> {
  const home = options.home ?? join(tempDir('tandem-home-'), 'home');
  mkdirSync(home, { recursive: true });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: { ...baseEnv(home), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('spawn', () => options.onSpawn?.(child.pid ?? 0));
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout,
        stderr,
        events: () =>
          stdout
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => JSON.parse(line) as Record<string, any>),
      }),
    );
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else child.stdin.end();
  });
}
