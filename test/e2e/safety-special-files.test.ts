// /dev/zero, FIFOs and huge files as AGENTS.md, config, .env and chat files: tandem finishes with a
// clear warning for each, reads at most a cap of any of them, and stays far below 300 MB of memory.
import { execFileSync } from 'node:child_process';
import { symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCli } from '../support/cli.js';
import { searchReplace } from '../support/replies.js';
import { memoryProbe } from '../support/safety.js';
import { gitRepo, read } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MEMORY_BOUND = 300 * 1024 * 1024;
const TARGETS = ['AGENTS.md', '.tandem.conf.yml', '.env', 'data.txt'] as const;

type Make = (path: string) => void;
const makers: ReadonlyArray<readonly [string, Make, RegExp]> = [
  ['a symlink to /dev/zero', (path) => symlinkSync('/dev/zero', path), /leads outside the repository|not a regular file/],
  ['a FIFO', (path) => execFileSync('mkfifo', [path]), /not a regular file/],
  // sparse: 4 GiB on paper, nothing on disk; reading it whole would need 4 GiB of memory
  ['a 4 GiB file', (path) => { writeFileSync(path, 'x'); truncateSync(path, 4 * 1024 ** 3); }, /4,294,967,296 bytes/],
];

describe('special and huge files', () => {
  it.each(makers)('%s as AGENTS.md, .tandem.conf.yml, .env and a chat file: warnings, the edit lands, memory stays low', async (_, make, warning) => {
    const repo = gitRepo({ 'a.py': 'a = 1\n' });
    for (const target of TARGETS) make(join(repo, target));
    server = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('a.py', 'a = 1\n', 'a = 2\n'))] }, fallback: textReply('fix: a') });
    const probe = memoryProbe();

    const run = await runCli(
      ['--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '-m', 'edit', '--yes-always', 'a.py', 'data.txt'],
      { cwd: repo, env: probe.env },
    );

    expect(run.code, run.stderr).toBe(0);
    expect(server.chatRequests('m').length).toBeGreaterThan(0);
    expect(read(repo, 'a.py')).toBe('a = 2\n');
    const warnings = run.stderr.split('\n').filter((line) => warning.test(line));
    for (const target of TARGETS) expect(warnings.some((line) => line.includes(target)), `${target} in:\n${run.stderr}`).toBe(true);
    expect(probe.maxRssBytes()).toBeLessThan(MEMORY_BOUND);
    const sent = JSON.stringify(server.chatRequests('m')[0]?.body);
    expect(sent.length).toBeLessThan(200_000);
  });
});
