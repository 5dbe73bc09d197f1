import { describe, expect, it } from 'vitest';
import { missingSnapshot } from '../../src/edits/file-text.js';
import { planEdits } from '../../src/edits/plan.js';
import type { Edit, FileSnapshot } from '../../src/edits/types.js';

function snap(path: string, text: string | null): FileSnapshot {
  if (text === null) return missingSnapshot(path);
  return { path, text, eol: '\n', bom: false, finalNewline: text === '' || text.endsWith('\n') };
}

function files(entries: Record<string, string | null>): Map<string, FileSnapshot> {
  return new Map(Object.entries(entries).map(([p, t]) => [p, snap(p, t)]));
}

let n = 0;
function rep(path: string, search: string, replace: string): Edit {
  const index = n++;
  return { kind: 'replace', path, search, replace, index, source: `${path}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE` };
}

describe('planEdits', () => {
  it('applies edits for one file in order, each on the previous result', () => {
    const plan = planEdits(
      [rep('a.py', 'x = 1\n', 'x = 2\n'), rep('a.py', 'x = 2\n', 'x = 3\n')],
      files({ 'a.py': 'x = 1\n' }),
      { chatFiles: ['a.py'] },
    );
    expect(plan.failures).toEqual([]);
    expect(plan.files[0]?.after).toBe('x = 3\n');
    expect(plan.files[0]?.editIndexes).toHaveLength(2);
  });

  it('a later block disambiguates by the previous block position', () => {
    const text = 'def a():\n    return 0\n\ndef b():\n    return 0\n';
    const plan = planEdits(
      [rep('m.py', 'def b():\n', 'def b(x):\n'), rep('m.py', '    return 0\n', '    return x\n')],
      files({ 'm.py': text }),
      { chatFiles: ['m.py'] },
    );
    expect(plan.failures).toEqual([]);
    expect(plan.files[0]?.after).toBe('def a():\n    return 0\n\ndef b(x):\n    return x\n');
  });

  it('an ambiguous first block changes nothing and names both lines', () => {
    const plan = planEdits([rep('m.py', '    return 0\n', '    return 1\n')], files({ 'm.py': 'def a():\n    return 0\ndef b():\n    return 0\n' }), {
      chatFiles: ['m.py'],
    });
    expect(plan.files).toEqual([]);
    expect(plan.failures[0]?.reason).toBe('ambiguous');
    expect(plan.failures[0]?.message).toMatch(/lines 2, 4/);
  });

  it('creates a missing file from an empty SEARCH', () => {
    const plan = planEdits([rep('new/x.ts', '', 'export const x = 1;\n')], files({}), { chatFiles: [] });
    expect(plan.files[0]).toMatchObject({ path: 'new/x.ts', created: true, after: 'export const x = 1;\n' });
  });

  it('appends on an empty SEARCH to a non-empty file, once', () => {
    const plan = planEdits(
      [rep('a.txt', '', 'tail\n'), rep('a.txt', '', 'tail\n')],
      files({ 'a.txt': 'head\n' }),
      { chatFiles: ['a.txt'] },
    );
    expect(plan.files[0]?.after).toBe('head\ntail\n');
    expect(plan.files[0]?.notes.join(' ')).toMatch(/appended/);
    expect(plan.files[0]?.notes.join(' ')).toMatch(/already contains/);
  });

  it('whole-file edits replace the content', () => {
    const plan = planEdits([{ kind: 'whole', path: 'a.txt', content: 'new\n', index: 0, source: '' }], files({ 'a.txt': 'old\n' }), {
      chatFiles: [],
    });
    expect(plan.files[0]?.after).toBe('new\n');
  });

  it('applies to the one other chat file that contains SEARCH, with a note', () => {
    const plan = planEdits([rep('a.py', 'def g():\n', 'def g(y):\n')], files({ 'a.py': 'def f():\n', 'b.py': 'def g():\n' }), {
      chatFiles: ['a.py', 'b.py'],
    });
    expect(plan.failures).toEqual([]);
    expect(plan.files).toHaveLength(1);
    expect(plan.files[0]?.path).toBe('b.py');
    expect(plan.files[0]?.notes.join()).toMatch(/applied to b\.py/);
  });

  it('does not guess when two other chat files contain SEARCH', () => {
    const plan = planEdits([rep('a.py', 'def g():\n', 'def g(y):\n')], files({ 'a.py': 'x\n', 'b.py': 'def g():\n', 'c.py': 'def g():\n' }), {
      chatFiles: ['a.py', 'b.py', 'c.py'],
    });
    expect(plan.files).toEqual([]);
    expect(plan.failures[0]?.reason).toBe('no_match');
  });

  it('a failure does not stop the other edits', () => {
    const plan = planEdits(
      [rep('a.txt', 'nope\n', 'x\n'), rep('a.txt', 'b\n', 'B\n')],
      files({ 'a.txt': 'a\nb\n' }),
      { chatFiles: ['a.txt'] },
    );
    expect(plan.failures.map((f) => f.reason)).toEqual(['no_match']);
    expect(plan.files[0]?.after).toBe('a\nB\n');
  });

  it('refuses paths outside the repository and .git internals', () => {
    const plan = planEdits(
      [rep('../x', '', 'x\n'), rep('/etc/passwd', '', 'x\n'), rep('.git/config', '', 'x\n'), rep('/repo/ok.txt', '', 'ok\n')],
      files({}),
      { chatFiles: [], root: '/repo' },
    );
    expect(plan.failures.map((f) => f.reason)).toEqual(['outside_repo', 'outside_repo', 'outside_repo']);
    expect(plan.files.map((f) => f.path)).toEqual(['ok.txt']);
  });

  it('passes on refusals from loading (binary, too large)', () => {
    const plan = planEdits([rep('img.png', 'a\n', 'b\n')], files({}), {
      chatFiles: [],
      refused: new Map([['img.png', { reason: 'binary', message: 'img.png is binary.' }]]),
    });
    expect(plan.failures[0]).toMatchObject({ reason: 'binary' });
  });

  it('SEARCH on a missing file is missing_file', () => {
    const plan = planEdits([rep('gone.txt', 'a\n', 'b\n')], files({}), { chatFiles: [] });
    expect(plan.failures[0]?.reason).toBe('missing_file');
  });

  it('keeps a missing final newline', () => {
    const plan = planEdits([rep('a.txt', 'b', 'c')], files({ 'a.txt': 'a\nb' }), { chatFiles: [] });
    expect(plan.files[0]?.after).toBe('a\nc');
  });

  it('deletes lines with an empty REPLACE', () => {
    const plan = planEdits([rep('a.txt', 'b\n', '')], files({ 'a.txt': 'a\nb\nc\n' }), { chatFiles: [] });
    expect(plan.files[0]?.after).toBe('a\nc\n');
  });

  // How fast is measured by `npm run bench` (edits section), never here.
  it('plans a 2 MB reply over a 20k-line file', () => {
    const lines = Array.from({ length: 20000 }, (_, i) => `    value_${i} = compute(${i})  # note`);
    const edits: Edit[] = [];
    for (let i = 0; i < 20000; i += 20) {
      const search = `${lines[i]}\n${lines[i + 1]}\n`;
      edits.push(rep('big.py', search, search.replace('compute', 'recompute').repeat(40)));
    }
    const plan = planEdits(edits, files({ 'big.py': lines.join('\n') + '\n' }), { chatFiles: ['big.py'] });
    expect(plan.failures).toEqual([]);
    expect(plan.files[0]?.editIndexes).toHaveLength(1000);
    expect(plan.files[0]?.after.split('\n')).toHaveLength(20000 + 1000 * 78 + 1);
  });
});
