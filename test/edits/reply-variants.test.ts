// The limits of the real-model variants (the cases in test/edits/replies/ show them applied): where
// each rule must NOT fire, so a lenient reading never lands an edit in the wrong place.
import { describe, expect, it } from 'vitest';
import { matchBlock } from '../../src/edits/match.js';
import { parseReply } from '../../src/coders/registry.js';
import { planEdits } from '../../src/edits/plan.js';
import { redirectPath } from '../../src/edits/redirect.js';
import type { Edit, FileSnapshot } from '../../src/edits/types.js';

const F = '```';
const snap = (path: string, text: string | null): FileSnapshot => ({ path, text, eol: '\n', bom: false, finalNewline: true });
const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([p, t]) => [p, snap(p, t)]));
const replace = (path: string, search: string, repl: string, extra: Partial<Edit> = {}): Edit =>
  ({ kind: 'replace', path, search, replace: repl, index: 0, source: '', ...extra }) as Edit;

describe('stray divider', () => {
  it('a block with an empty REPLACE still has its one divider', () => {
    const reply = `a.py\n${F}\n<<<<<<< SEARCH\nx = 1\n=======\n>>>>>>> REPLACE\n${F}\n`;
    const parsed = parseReply('diff', reply, { chatFiles: ['a.py'] });
    expect(parsed.edits).toMatchObject([{ search: 'x = 1\n', replace: '' }]);
  });

  it('three dividers are still reported, with every line the model wrote', () => {
    const reply = `a.py\n${F}\n<<<<<<< SEARCH\nx\n=======\ny\n=======\nz\n=======\n>>>>>>> REPLACE\n${F}\n`;
    const parsed = parseReply('diff', reply, { chatFiles: ['a.py'] });
    expect(parsed.edits).toEqual([]);
    expect(parsed.problems[0]?.message).toContain('lines 5, 7, 9');
  });
});

describe('whole-format listings', () => {
  it('two unnamed column-0 fences with one chat file are reported, not written', () => {
    const reply = `${F}js\nconst a = 1;\n${F}\n\nor\n\n${F}js\nconst a = 2;\n${F}\n`;
    const parsed = parseReply('whole', reply, { chatFiles: ['a.js'] });
    expect(parsed.edits).toEqual([]);
    expect(parsed.problems).toHaveLength(2);
  });

  it('an indented fence named by a path line is still an example', () => {
    const reply = `1. Create the config:\n\n   app.json\n   ${F}json\n   {}\n   ${F}\n`;
    expect(parseReply('whole', reply, { chatFiles: ['app.json'] }).edits).toEqual([]);
  });
});

describe('udiff', () => {
  it('prose after a hunk is not taken as context', () => {
    const reply = `--- a/a.py\n+++ b/a.py\n@@ @@\n x = 1\n-y = 2\n+y = 3\nThis fixes y.\nIt also keeps x.\n`;
    const parsed = parseReply('udiff', reply, { chatFiles: ['a.py'] });
    expect(parsed.edits).toMatchObject([{ search: 'x = 1\ny = 2\n', replace: 'x = 1\ny = 3\n' }]);
  });

  it('a context line that holds a fence of the file is context, not the end of the diff', () => {
    const reply = `${F}diff\n--- a/README.md\n+++ b/README.md\n@@ @@\n ${F}bash\n-app run\n+app run -v\n ${F}\n${F}\n`;
    const parsed = parseReply('udiff', reply, { chatFiles: ['README.md'] });
    expect(parsed.edits).toMatchObject([{ search: `${F}bash\napp run\n${F}\n`, replace: `${F}bash\napp run -v\n${F}\n` }]);
  });

  it('a rename to a path that only differs by prefix folders of one chat file is carried out', () => {
    const reply = `--- a/app.py\n+++ b/src/app.py\n@@ @@\n-x = 1\n+x = 2\n`;
    const parsed = parseReply('udiff', reply, { chatFiles: ['src/app.py'] });
    expect(parsed.problems).toEqual([]);
    expect(parsed.edits).toMatchObject([{ path: 'src/app.py' }]);
  });

  it('"\\ No newline" in the middle of a file is not honoured for the file end', () => {
    const plan = planEdits([replace('a.txt', 'b\n', 'B\n', { finalNewline: false })], files({ 'a.txt': 'a\nb\nc\n' }), { chatFiles: ['a.txt'] });
    expect(plan.files[0]?.after).toBe('a\nB\nc\n');
  });

  it('--- /dev/null whose lines equal the existing file changes nothing and fails nothing', () => {
    const plan = planEdits([replace('a.txt', '', 'a\n', { createsFile: true })], files({ 'a.txt': 'a\n' }), { chatFiles: ['a.txt'] });
    expect(plan.failures).toEqual([]);
    expect(plan.files[0]?.after).toBe('a\n');
  });
});

describe('names', () => {
  const exists = (set: string[]) => (p: string) => set.includes(p);

  it('App.css is not App.js: another language is a new file, not a near miss', () => {
    expect(redirectPath('src/App.css', { chatFiles: ['src/App.js'], exists: exists([]) })).toBeUndefined();
  });

  it('two chat files of the stem make the near miss a guess, so it is not taken', () => {
    expect(redirectPath('x.cjs', { chatFiles: ['x.js', 'x.ts'], exists: exists([]) })).toBeUndefined();
  });

  it('a written name that exists is what it says', () => {
    expect(redirectPath('x.cjs', { chatFiles: ['x.js'], exists: exists(['x.cjs']) })).toBeUndefined();
    expect(redirectPath('path/to/x.py', { chatFiles: ['x.py'], exists: exists(['path/to/x.py']) })).toBeUndefined();
  });

  it('the placeholder folder is refused when the rest names no chat file', () => {
    expect(redirectPath('path/to/file.ext', { chatFiles: ['src/app.py'], exists: exists([]) })).toEqual({ kind: 'placeholder', prefix: 'path/to/' });
  });
});

describe('late rungs', () => {
  it('tabs for spaces needs one width for every line', () => {
    const file = ['\tif x:', '\t\ty()'];
    expect(matchBlock(file, ['    if x:', '      y()'], ['    pass']).kind).toBe('none');
    expect(matchBlock(file, ['    if x:', '        y()'], ['    if x:', '        z()'])).toMatchObject({ kind: 'found', rung: 'tabs', replacement: ['\tif x:', '\t\tz()'] });
  });

  it('inner whitespace applies only to a unique place', () => {
    const file = ['a  =  1', 'b = 2', 'a   =   1'];
    expect(matchBlock(file, ['a = 1'], ['a = 9']).kind).toBe('none');
    expect(matchBlock(['a  =  1', 'b = 2'], ['a = 1'], ['a = 9'])).toMatchObject({ kind: 'found', rung: 'inner_whitespace' });
  });

  it('candidates that give different files stay ambiguous', () => {
    const file = ['x', 'x', 'y'];
    expect(matchBlock(file, ['x'], ['z']).kind).toBe('ambiguous');
    expect(matchBlock(file, ['x'], [])).toMatchObject({ kind: 'found', start: 0 });
  });
});
