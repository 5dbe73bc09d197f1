// Played as an attacker against the built CLI: a hostile reply creates a module that shadows the one the
// lint command imports, a pre-commit config, and an edit of a file the repository's git config includes;
// another reply creates 101 files; another suggests a command. Headless and with --yes-always, none of it
// is written or run, the run exits 4, and an ordinary edit in the same reply proves the run got that far.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCli } from '../support/cli.js';
import { searchReplace } from '../support/replies.js';
import { markerPath } from '../support/safety.js';
import { git, gitRepo, read } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MODES = [
  ['headless', [] as string[]],
  ['with --yes-always', ['--yes-always']],
] as const;

async function attack(repo: string, reply: string, flags: readonly string[], extra: readonly string[] = []) {
  server = await startFakeOpenAI({ replies: { m: [textReply(reply)] }, fallback: textReply('Done.') });
  const run = await runCli(
    ['--no-stream', '--json', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '-m', 'edit', ...flags, ...extra, 'app.py'],
    { cwd: repo },
  );
  const questions = run.events().filter((e) => e.type === 'question');
  return { run, questions };
}

describe('files that change what git or an approved command does need a person', () => {
  it.each(MODES)('%s: a shadow module, a pre-commit config and a git-included file are not written; exit 4', async (_, flags) => {
    const marker = markerPath();
    const repo = gitRepo({ 'app.py': 'x = 1\n', 'shared.gitconfig': '[user]\n\tname = Team\n' });
    git(repo, 'config', 'include.path', '../shared.gitconfig');
    const gitConfig = readFileSync(join(repo, '.git', 'config'), 'utf8');
    const reply = [
      searchReplace('py_compile.py', '', `open(${JSON.stringify(marker)}, "w").write("pwned")\n`),
      searchReplace('.pre-commit-config.yaml', '', `repos:\n- repo: local\n  hooks:\n  - id: x\n    entry: touch ${marker}\n    language: system\n`),
      searchReplace('shared.gitconfig', '[user]\n\tname = Team\n', `[user]\n\tname = Team\n[core]\n\tfsmonitor = touch ${marker}\n`),
      // A home-relative path is refused, never a literal `~` folder in the repository (nor the real file).
      searchReplace('~/.bashrc', '', `touch ${marker}\n`),
      searchReplace('app.py', 'x = 1\n', 'x = 2\n'),
    ].join('\n');

    const { run, questions } = await attack(repo, reply, flags, ['--lint-cmd', 'python3 -m py_compile']);

    expect(run.code, run.stderr).toBe(4);
    expect(read(repo, 'app.py')).toBe('x = 2\n'); // the reply was applied as far as it may be
    expect(existsSync(join(repo, 'py_compile.py'))).toBe(false);
    expect(existsSync(join(repo, '.pre-commit-config.yaml'))).toBe(false);
    expect(read(repo, 'shared.gitconfig')).toBe('[user]\n\tname = Team\n');
    expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe(gitConfig);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(repo, '~'))).toBe(false);
    expect(run.events().some((e) => e.type === 'edit' && e.path === '~/.bashrc' && e.status === 'failed')).toBe(true);
    expect(questions.map((q) => [q.text.split(' ')[3], q.answeredBy])).toEqual([
      ['py_compile.py?', 'nobody'],
      ['.pre-commit-config.yaml?', 'nobody'],
      ['shared.gitconfig?', 'nobody'],
    ]);
    expect(run.events().at(-1)).toMatchObject({ type: 'result', status: 'approval_required' });
  });

  it.each(MODES)('%s: a reply creating 101 files writes none of them; exit 4', async (_, flags) => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    const files = Array.from({ length: 101 }, (_, i) => searchReplace(`f${i}.py`, '', `n = ${i}\n`));
    const reply = [searchReplace('app.py', 'x = 1\n', 'x = 2\n'), ...files].join('\n');

    const { run, questions } = await attack(repo, reply, flags);

    expect(run.code, run.stderr).toBe(4);
    expect(questions).toEqual([expect.objectContaining({ answeredBy: 'nobody', personOnly: true, text: expect.stringMatching(/creates 101 files, more than 100/) })]);
    expect(readdirSync(repo).filter((name) => /^f\d+\.py$/.test(name))).toEqual([]);
    expect(read(repo, 'app.py')).toBe('x = 1\n');
  });
});

describe("a repository's settings that raise the bill", () => {
  it.each(MODES)('%s: a committed config choosing a costlier model and more reflections sends nothing; exit 4', async (_, flags) => {
    const repo = gitRepo({ 'app.py': 'x = 1\n', '.tandem.conf.yml': 'weak-model: o1-pro\nmax-reflections: 50\n' });
    server = await startFakeOpenAI({ fallback: textReply('Done.') });
    const run = await runCli(['--no-stream', '--json', '--base-url', server.url, '--model', 'm', '--map-tokens', '0', '-m', 'edit', ...flags, 'app.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(4);
    // It got as far as reading the repository's config and saying what it would not apply, and no further.
    expect(run.stderr).toMatch(/not applied: the repository's .*\.tandem\.conf\.yml sets (weak-model to o1-pro|max-reflections to 50), which may raise what each request costs/);
    expect(server.chatRequests('o1-pro')).toEqual([]);
    expect(server.chatRequests('m')).toEqual([]);
    expect(read(repo, 'app.py')).toBe('x = 1\n');
  });
});

describe('a suggested shell command headless', () => {
  it('with --yes-always: not run, exit 4, and the message does not say --yes-always would help', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    const reply = `${searchReplace('app.py', 'x = 1\n', 'x = 2\n')}\nThen run:\n\n\`\`\`bash\ntouch ran-it\n\`\`\`\n`;
    server = await startFakeOpenAI({ replies: { m: [textReply(reply)] }, fallback: textReply('fix: x') });

    const run = await runCli(['--no-stream', '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0', '-m', 'edit', '--yes-always', 'app.py'], { cwd: repo });

    expect(run.code, run.stderr).toBe(4);
    expect(read(repo, 'app.py')).toBe('x = 2\n');
    expect(existsSync(join(repo, 'ran-it'))).toBe(false);
    expect(run.stderr).toContain('Run the suggested command: touch ran-it? No: only a person can answer this (--yes-always does not)');
    expect(run.stderr).not.toContain('use --yes-always');
  });
});
