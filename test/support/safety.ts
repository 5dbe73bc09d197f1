// Helpers for the end-to-end safety tests: an attacker's marker file, everything the fake server was
// sent, and a probe that reports the CLI's peak memory.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeOpenAIServer } from './fake-openai-server.js';
import { tempDir } from './temp-repo.js';

/** Every request the server received (headers and bodies), as one text to search for leaks. */
export function everythingSent(server: FakeOpenAIServer): string {
  return server.requests.map((r) => `${JSON.stringify(r.headers)}\n${typeof r.body === 'string' ? r.body : JSON.stringify(r.body)}`).join('\n');
}

/** A folder outside every repository with a secret file in it. */
export function outsideSecret(text = 'TOP-SECRET-7f3a9c'): { dir: string; file: string; text: string } {
  const dir = tempDir('tandem-outside-');
  const file = join(dir, 'secret.txt');
  writeFileSync(file, `${text}\n`);
  return { dir, file, text };
}

/** A path where attacker code would leave a marker; the test asserts it never appears. */
export function markerPath(): string {
  return join(tempDir('tandem-marker-'), 'pwned');
}

export const exists = existsSync;

/**
 * NODE_OPTIONS that make the CLI write its peak resident memory (bytes) to a file as it exits, and
 * a reader for that file. Child processes of the CLI would inherit it too, so each writes its own line.
 */
export function memoryProbe(): { env: Record<string, string>; maxRssBytes: () => number } {
  const dir = tempDir('tandem-rss-');
  const out = join(dir, 'rss.txt');
  const probe = join(dir, 'probe.mjs');
  writeFileSync(
    probe,
    `import { appendFileSync } from 'node:fs';\nprocess.on('exit', () => appendFileSync(${JSON.stringify(out)}, process.resourceUsage().maxRSS * 1024 + '\\n'));\n`,
  );
  return {
    env: { NODE_OPTIONS: `--import=${probe}` },
    maxRssBytes: () => Math.max(...readFileSync(out, 'utf8').trim().split('\n').map(Number)),
  };
}
