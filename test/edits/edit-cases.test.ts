// Edit cases from replaying real replies (issue 21, item 7), each at the parse/plan level:
// names the whole format could not read, `path/to/` that really exists, `--- /dev/null` over an
// existing file, a new file's BOM, and a block whose SEARCH equals its REPLACE.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODERS } from '../../src/coders/registry.js';
import { describe, expect, it } from 'vitest';
import { runEditRound } from '../../src/round/edit-round.js';
import { missingSnapshot } from '../../src/edits/file-text.js';
import { parseReply } from '../../src/coders/registry.js';
import { planEdits } from '../../src/edits/plan.js';
import type { FileSnapshot } from '../../src/edits/types.js';
import { searchReplace } from '../support/replies.js';
import { gitRepo } from '../support/temp-repo.js';

function snap(path: string, text: string | null, bom = false): FileSnapshot {
  if (text === null) return missingSnapshot(path);
  return { path, text, eol: '\n', bom, finalNewline: text === '' || text.endsWith('\n') };
}

function files(entries: Record<string, string | null>): Map<string, FileSnapshot> {
  return new Map(Object.entries(entries).map(([p, t]) => [p, snap(p, t)]));
}

describe('whole format: a name line tandem cannot read is never the only chat file', () => {
  const listing = (name: string): string => `${name}\n\`\`\`python\nprint("new file")\n\`\`\`\n`;

  it.each([
    ['données.py', 'données.py'],
    ['`my notes.txt`', 'my notes.txt'],
    ['**résumé/ünïcode.md**', 'résumé/ünïcode.md'],
  ])('%s is read as the path %s', (line, path) => {
    const result = parseReply('whole', listing(line), { chatFiles: ['app.py'] });
    expect(result.problems).toEqual([]);
    expect(result.edits.map((e) => e.path)).toEqual([path]);
  });

  it.each(['my notes.txt', 'I moved the helper into utils.py', 'nouvelles données.py'])(
    'a line naming a file it cannot read (%s) is a problem for the model, not an edit of app.py',
    (line) => {
      const result = parseReply('whole', listing(line), { chatFiles: ['app.py'] });
      expect(result.edits).toEqual([]);
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]?.message).toMatch(/could not read .* as a file name.*was not written/);
    },
  );

  it('prose that names the only chat file, or no file, still means the only chat file', () => {
    for (const line of ['Here is the updated app.py', 'Here is the updated file:', 'Done.', 'Run it with `python app.py`:', '`python app.py`']) {
      expect(parseReply('whole', listing(line), { chatFiles: ['app.py'] }).edits.map((e) => e.path), line).toEqual(['app.py']);
    }
  });
});

describe('SEARCH/REPLACE: a name line tandem cannot read never means another file', () => {
  const block = (name: string, search: string): string => `${name}\n\`\`\`\n<<<<<<< SEARCH\n${search}\n=======\nchanged\n>>>>>>> REPLACE\n\`\`\`\n`;
  const reply = (name: string): string => `${block('a.py', 'x = 1')}\n${block(name, 'x = 1')}\n${block('', 'x = 1')}`;

  it.each(['my notes.txt', 'src/"odd\\name.py', "'quoted.py'", 'Then I changed utils.py'])(
    '%s is a problem for the model: neither its block nor the unnamed one after it lands in a.py',
    (name) => {
      const result = parseReply('diff', reply(name), { chatFiles: ['a.py'] });
      // Only the first block (named a.py) is an edit, though all three SEARCH texts are in a.py.
      expect(result.edits.map((e) => e.path)).toEqual(['a.py']);
      expect(result.problems).toHaveLength(2);
      expect(result.problems[0]?.message).toContain('cannot read as a file path');
    },
  );

  it('a readable name, a backticked name with spaces, or a chat file in prose still names the file', () => {
    for (const [name, path] of [['b.py', 'b.py'], ['`my notes.txt`', 'my notes.txt'], ['Then in a.py', 'a.py']] as const) {
      expect(parseReply('diff', block(name, 'x = 1'), { chatFiles: ['a.py'] }).edits.map((e) => e.path), name).toEqual([path]);
    }
  });
});

describe('the example folder path/to/', () => {
  const edit = parseReply('diff', searchReplace('path/to/new.py', '', 'x = 1\n'), { chatFiles: ['app.py'] }).edits;

  it('is refused when the repository has no such folder', () => {
    const plan = planEdits(edit, files({}), { chatFiles: ['app.py'] });
    expect(plan.failures.map((f) => f.reason)).toEqual(['placeholder_path']);
  });

  it('is an ordinary folder when the repository has one', () => {
    const plan = planEdits(edit, files({}), { chatFiles: ['app.py'], existingFolders: new Set(['path/to']) });
    expect(plan.failures).toEqual([]);
    expect(plan.files.map((f) => [f.path, f.after])).toEqual([['path/to/new.py', 'x = 1\n']]);
  });
});

describe('a unified diff headed --- /dev/null', () => {
  const diff = (body: string): string => `\`\`\`diff\n--- /dev/null\n+++ b/app.py\n@@ -0,0 +1,2 @@\n${body}\`\`\`\n`;

  it('whose hunk removes lines the existing file has is an edit of that file', () => {
    const edits = parseReply('udiff', diff(' def f():\n-    return 1\n+    return 2\n'), { chatFiles: ['app.py'] }).edits;
    const plan = planEdits(edits, files({ 'app.py': 'import os\n\ndef f():\n    return 1\n' }), { chatFiles: ['app.py'] });
    expect(plan.failures).toEqual([]);
    expect(plan.files[0]?.after).toBe('import os\n\ndef f():\n    return 2\n');
  });

  it('that only adds lines is refused over an existing file with other text', () => {
    const edits = parseReply('udiff', diff('+x = 1\n+y = 2\n'), { chatFiles: ['app.py'] }).edits;
    const plan = planEdits(edits, files({ 'app.py': 'import os\n' }), { chatFiles: ['app.py'] });
    expect(plan.failures.map((f) => f.reason)).toEqual(['file_exists']);
  });

  it('still creates a missing file', () => {
    const edits = parseReply('udiff', diff('+x = 1\n'), { chatFiles: [] }).edits;
    expect(planEdits(edits, files({}), { chatFiles: [] }).files.map((f) => [f.path, f.after, f.created])).toEqual([['app.py', 'x = 1\n', true]]);
  });
});

describe('a byte order mark', () => {
  const BOM = '\uFEFF';

  it('at the start of a new file is kept (whole and SEARCH/REPLACE)', () => {
    const whole = planEdits([{ kind: 'whole', path: 'New.cs', content: `${BOM}class A {}\n`, index: 0, source: '' }], files({}), { chatFiles: [] });
    expect(whole.files[0]?.after).toBe(`${BOM}class A {}\n`);
    const block = parseReply('diff', searchReplace('B.cs', '', `${BOM}class B {}\n`), { chatFiles: [] }).edits;
    expect(planEdits(block, files({}), { chatFiles: [] }).files[0]?.after).toBe(`${BOM}class B {}\n`);
  });

  it('of a new file reaches the disk, once', async () => {
    const root = gitRepo({ 'Old.cs': `${BOM}class O {}\n` });
    const reply = ['New.cs', '```', `${BOM}class N {}`, '```', ''].join('\n');
    await runEditRound(CODERS.get('whole').parse(reply, { chatFiles: ['Old.cs', 'New.cs'] }), { root, chatFiles: ['Old.cs', 'New.cs'], dryRun: false, dirtyCommits: false }, { asker: { confirm: async () => 'yes' }, git: null, emit: () => {} });
    expect([...readFileSync(join(root, 'New.cs')).subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 0x63]);
  });

  it('echoed by the model for a file that has one is dropped (the writer puts the file\'s own back)', () => {
    const existing = new Map([['Old.cs', snap('Old.cs', 'class O {}\n', true)]]);
    const plan = planEdits([{ kind: 'whole', path: 'Old.cs', content: `${BOM}class O { int x; }\n`, index: 0, source: '' }], existing, { chatFiles: ['Old.cs'] });
    expect(plan.files[0]?.after).toBe('class O { int x; }\n');
  });
});

describe('a block whose SEARCH equals its REPLACE', () => {
  it('changes nothing and is a note, never a failure; the other blocks apply', () => {
    const reply = [searchReplace('app.py', 'x = 1\n', 'x = 1\n'), searchReplace('app.py', 'y = 2\n', 'y = 3\n')].join('\n');
    const plan = planEdits(parseReply('diff', reply, { chatFiles: ['app.py'] }).edits, files({ 'app.py': 'x = 1\ny = 2\n' }), { chatFiles: ['app.py'] });
    expect(plan.failures).toEqual([]);
    expect(plan.files[0]?.after).toBe('x = 1\ny = 3\n');
    expect(plan.unchanged?.map((u) => u.path)).toEqual(['app.py']);
  });
});
