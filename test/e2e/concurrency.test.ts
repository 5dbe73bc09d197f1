// One writer per repository: four tandem processes, each with its own scripted server, edit different
// lines of one file at the same time, six times over. No edit a process reported may be lost.
import { describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCli, type CliRun } from '../support/cli.js';
import { searchReplace } from '../support/replies.js';
import { git, gitRepo, read } from '../support/temp-repo.js';

const PROCESSES = 4;
const REPETITIONS = 6;
const START = Array.from({ length: PROCESSES }, (_, i) => `v${i} = 0\n`).join('');

async function repetition(servers: FakeOpenAIServer[]): Promise<void> {
  const repo = gitRepo({ 'shared.py': START });
  servers.forEach((server, i) => {
    server.enqueue([textReply(searchReplace('shared.py', `v${i} = 0\n`, `v${i} = ${i + 1}\n`))], 'm');
    server.enqueue([textReply(`edit ${i}`)], 'w');
  });
  const runs: CliRun[] = await Promise.all(
    servers.map((server) =>
      runCli(['-m', 'change your line', '--json', '--yes-always', '--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', 'shared.py'], { cwd: repo }),
    ),
  );
  const file = read(repo, 'shared.py');
  const log = git(repo, 'log', '--format=%s');
  let succeeded = 0;
  runs.forEach((run, i) => {
    if (run.code === 0) {
      succeeded++;
      expect(file, `process ${i} exited 0`).toContain(`v${i} = ${i + 1}\n`);
      expect(log.split('\n'), `process ${i} exited 0`).toContain(`edit ${i}`);
      return;
    }
    // A process that did not land its edit says so in one line and exits non-zero.
    expect(run.code, run.stderr).not.toBeNull();
    const errors = run.events().filter((e) => e.type === 'error');
    expect(errors, run.stdout).toHaveLength(1);
    expect(String(errors[0]!.message).split('\n')).toHaveLength(1);
    expect(file).not.toContain(`v${i} = ${i + 1}\n`);
  });
  // Nothing half-done: the tree is clean and every line that changed is in a commit.
  expect(git(repo, 'status', '--porcelain', '--untracked-files=no')).toBe('');
  expect(succeeded).toBeGreaterThan(0);
}

describe('four processes on one repository', () => {
  it(`keeps every reported edit, ${REPETITIONS} times`, async () => {
    const servers = await Promise.all(Array.from({ length: PROCESSES }, () => startFakeOpenAI({ replies: { m: [], w: [] } })));
    try {
      for (let r = 0; r < REPETITIONS; r++) await repetition(servers);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  }, 300_000);
});
