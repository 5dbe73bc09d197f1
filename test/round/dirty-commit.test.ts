// The user's own pending work on a file the model edits is committed first, on its own, through the
// real path: the edit round with the git port the CLI builds, in a real repository.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODERS } from '../../src/coders/registry.js';
import { createGitPort } from '../../src/cli/git-adapter.js';
import { runEditRound } from '../../src/round/edit-round.js';
import type { Asker } from '../../src/coders/ports.js';
import type { RoundEvent } from '../../src/round/round-events.js';
import { isTandemCommit } from '../../src/git/commit.js';
import { makeFixture, userCommit, type Fixture } from '../git/git-fixture.js';

const noQuestions: Asker = { confirm: async () => 'no' };
const prompts = { system: '', examples: [], reminder: '' };

function replaceBlock(path: string, search: string, replace: string): string {
  return `${path}\n\`\`\`python\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n\`\`\`\n`;
}

describe('committing the user work before an edit', () => {
  let fx: Fixture;
  afterEach(async () => fx.cleanup());

  async function round(reply: string, chatFiles: string[], dirtyCommits = true) {
    const events: RoundEvent[] = [];
    const git = createGitPort(fx.root, { env: fx.env });
    const tandemHashes: Array<string | null> = [];
    const commit = async (paths: string[]) => void tandemHashes.push(await git.commitTandemChange(paths, 'feat: add g'));
    const result = await runEditRound(
      CODERS.get('diff').parse(reply, { chatFiles }),
      { root: fx.root, chatFiles, dryRun: false, dirtyCommits },
      { asker: noQuestions, git, emit: (event) => void events.push(event), commit },
    );
    return { result, events, git, tandemHashes };
  }

  it('commits the user change first, then tandem commits only its own change', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'app.py': 'def f():\n    return 1\n', 'other.py': 'o\n' });
    await fx.write({ 'app.py': 'def f():\n    return 2\n', 'other.py': 'o2\n' });
    const { result, events, tandemHashes } = await round(replaceBlock('app.py', '    return 2\n', '    return 2\n\ndef g():\n    return 3\n'), ['app.py']);
    expect(result.written.map((w) => w.path)).toEqual(['app.py']);
    const userCommitEvent = events.find((e) => e.type === 'commit');
    expect(userCommitEvent).toMatchObject({ type: 'commit', user: true, files: ['app.py'] });
    const userHash = (userCommitEvent as { hash: string }).hash;
    const tandemHash = tandemHashes[0];
    expect(await fx.git('log', '--format=%s', '-2')).toBe("feat: add g\nwip: your changes to app.py before tandem's edit\n");
    expect(await isTandemCommit(fx.root, userHash, { env: fx.env })).toBe(false);
    expect(await isTandemCommit(fx.root, tandemHash!, { env: fx.env })).toBe(true);
    expect(await fx.git('show', '--format=', userHash)).toContain('+    return 2');
    expect(await fx.git('show', '--format=', tandemHash!)).not.toContain('+    return 2');
    expect(await fx.git('status', '--porcelain')).toBe(' M other.py\n');
    expect(await readFile(join(fx.root, 'other.py'), 'utf8')).toBe('o2\n');
  });

  it('commits nothing of the user when the edited file is clean, or when dirty commits are off', async () => {
    fx = await makeFixture();
    const start = await userCommit(fx, { 'a.py': 'x = 1\n', 'b.py': 'y = 1\n' });
    await fx.write({ 'b.py': 'y = 2\n' });
    const clean = await round(replaceBlock('a.py', 'x = 1\n', 'x = 2\n'), ['a.py']);
    expect(clean.result.written.map((w) => w.path)).toEqual(['a.py']);
    const off = await round(replaceBlock('b.py', 'y = 2\n', 'y = 3\n'), ['b.py'], false);
    expect(off.result.written.map((w) => w.path)).toEqual(['b.py']);
    expect([...clean.events, ...off.events].filter((e) => e.type === 'commit')).toEqual([]);
    // Only tandem's own two commits came after the user's: no "wip" commit of the user's work.
    expect(await fx.git('log', '--format=%s', `${start}..HEAD`)).toBe('feat: add g\nfeat: add g\n');
    expect(await fx.git('show', '--format=', 'HEAD')).toContain('+y = 3');
  });
});
