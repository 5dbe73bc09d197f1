// A real clipboard for tests: a headless X server (Xvfb) on a free display, and xclip to put things on
// its clipboard and read them back. Null when Xvfb or xclip is not installed (.ci/run installs both).
import { execFile, spawn, spawnSync } from 'node:child_process';

export interface XClipboard {
  /** `DISPLAY=:N` and a PATH for the CLI under test. */
  readonly env: Record<string, string>;
  copy(data: string | Buffer, type?: string): Promise<void>;
  paste(type?: string): Promise<Buffer>;
  close(): Promise<void>;
}

export function missingXTools(): string | null {
  for (const tool of ['Xvfb', 'xclip']) if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  return null;
}

export async function startXClipboard(): Promise<XClipboard> {
  // -displayfd: the server picks a free display and writes its number to fd 3 once it is ready.
  const server = spawn('Xvfb', ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '320x240x24'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const display = await new Promise<string>((resolve, reject) => {
    let text = '';
    server.stdio[3]!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    server.on('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
  });
  const env = { DISPLAY: display, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  return {
    env,
    copy: (data, type = 'UTF8_STRING') =>
      new Promise((resolve, reject) => {
        // xclip forks a child that serves the selection; the process we started exits once it owns it.
        const child = spawn('xclip', ['-selection', 'clipboard', '-t', type, '-i'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`xclip exited ${code}`))));
        child.stdin.end(data);
      }),
    paste: (type = 'UTF8_STRING') =>
      new Promise((resolve, reject) => {
        execFile('xclip', ['-selection', 'clipboard', '-t', type, '-o'], { env, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
      }),
    close: async () => {
      server.kill();
      await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.on('exit', resolve)));
    },
  };
}
