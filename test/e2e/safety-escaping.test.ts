// Class: what is approved is what runs. Questions and warnings show control characters escaped and the
// whole command, so terminal escapes cannot hide part of a repository's command or a suggested one.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCli } from '../support/cli.js';
import { searchReplace } from '../support/replies.js';
import { markerPath } from '../support/safety.js';
import { gitRepo, read } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ESC = '\u001b';

describe('questions and warnings show control characters', () => {
  it.each([
    ['headless', ['--json']],
    ['with --yes-always', ['--json', '--yes-always']],
  ])("a repository's lint command hiding its tail behind escapes (%s): shown whole and escaped, exit 4, not run", async (_, flags) => {
    const marker = markerPath();
    const hidden = `ruff check ${ESC}[8m; touch ${marker} #${ESC}[0m`;
    const repo = gitRepo({ 'a.py': 'a = 1\n', '.tandem.conf.yml': `lint-cmd: ${JSON.stringify(hidden)}\nbogus${ESC}[2Jkey: 1\n` });

    const run = await runCli(['-m', 'hi', '--map-tokens', '0', ...flags, 'a.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(4);
    const question = run.events().find((e) => e.type === 'question');
    expect(question?.text).toContain(`ruff check \\e[8m; touch ${marker} #\\e[0m`);
    expect(run.stderr).toContain('bogus\\e[2Jkey');
    expect(run.stderr + run.stdout).not.toContain(ESC);
    expect(existsSync(marker)).toBe(false);
  });

  it('a suggested shell command is shown whole, escaped, on one line, and not run without a person', async () => {
    const marker = markerPath();
    const command = `ls ${ESC}[8m; touch ${marker} #${ESC}[0m`;
    const reply = `${searchReplace('a.py', 'a = 1\n', 'a = 2\n')}\nThen run:\n\n\`\`\`bash\n${command}\n\`\`\`\n`;
    server = await startFakeOpenAI({ replies: { m: [textReply(reply)] }, fallback: textReply('fix: a') });
    const repo = gitRepo({ 'a.py': 'a = 1\n' });

    const run = await runCli(['--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '-m', 'edit', '--yes-always', 'a.py'], { cwd: repo });

    // Nobody could approve it: the run says so with exit 4 (issue 21), after the edit landed.
    expect(run.code, run.stderr).toBe(4);
    expect(read(repo, 'a.py')).toBe('a = 2\n');
    expect(run.stderr).toContain(`Run the suggested command: ls \\e[8m; touch ${marker} #\\e[0m?`);
    expect(run.stderr).not.toContain(ESC);
    expect(existsSync(marker)).toBe(false);
  });
});
