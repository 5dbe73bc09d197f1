// Writes the model got wrong are found before anything is written, and go back to it as edit failures.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CODERS } from '../../src/coders/registry.js';
import { describe, expect, it } from 'vitest';
import { describeEditProblems, runEditRound } from '../../src/round/edit-round.js';
import { checkWrites } from '../../src/round/write-plan.js';
import type { PlannedFile } from '../../src/edits/types.js';
import { searchReplace } from '../support/replies.js';
import { gitRepo, read } from '../support/temp-repo.js';

function created(path: string): PlannedFile {
  return { path, before: { path, text: null, eol: '\n', bom: false, finalNewline: true }, after: 'x\n', editIndexes: [0], rungs: [], notes: [], created: true } as PlannedFile;
}

describe('checkWrites', () => {
  it('finds a path through a file on disk, through a file of the same reply, and a name too long', async () => {
    const root = gitRepo({ 'app.py': 'x = 1\n', 'pkg/mod.py': '' });
    const long = `${'n'.repeat(300)}.py`;
    const problems = await checkWrites(root, [created('app.py/child.py'), created('Makefile'), created('Makefile/helpers.py'), created(`pkg/${long}`), created('pkg/new/ok.py')]);
    expect(problems.map((p) => p.path)).toEqual(['app.py/child.py', 'Makefile/helpers.py', `pkg/${long}`]);
    expect(problems[0]?.message).toBe('Cannot write app.py/child.py: app.py is a file, not a folder. Put the new file somewhere else.');
    expect(problems[1]?.message).toMatch(/this reply also writes Makefile as a file/);
    expect(problems[2]?.message).toMatch(/is 303 bytes long, more than the 255/);
  });
});

describe('an edit round with writes the model got wrong', () => {
  it('applies the other edits and tells the model exactly which files it could not write', async () => {
    const root = gitRepo({ 'app.py': 'x = 1\n' });
    const reply = [
      searchReplace('app.py', 'x = 1\n', 'x = 2\n'),
      searchReplace('Makefile', '', 'all:\n'),
      searchReplace('Makefile/helpers.py', '', 'pass\n'),
      searchReplace('app.py/child.py', '', 'pass\n'),
    ].join('\n');
    const events: Array<{ type: string; status?: string; path?: string }> = [];
    const result = await runEditRound(
      CODERS.get('diff').parse(reply, { chatFiles: ['app.py'] }),
      { root, chatFiles: ['app.py'], dryRun: false, dirtyCommits: false },
      { asker: { confirm: async () => 'yes' }, git: null, emit: (e) => events.push(e) },
    );
    expect(read(root, 'app.py')).toBe('x = 2\n');
    expect(read(root, 'Makefile')).toBe('all:\n');
    expect(existsSync(join(root, 'app.py/child.py'))).toBe(false);
    expect(result.failures.map((f) => [f.edit.path, f.reason])).toEqual([
      ['Makefile/helpers.py', 'unwritable'],
      ['app.py/child.py', 'unwritable'],
    ]);
    expect(events.filter((e) => e.status === 'failed').map((e) => e.path)).toEqual(['Makefile/helpers.py', 'app.py/child.py']);
    const text = describeEditProblems(result, { parseProblems: '{problems}' });
    expect(text).toContain('Cannot write app.py/child.py: app.py is a file, not a folder.');
    expect(text).toContain('The other 2 blocks applied successfully.');
  });
});
