import { describe, expect, it } from 'vitest';
import { parseReply } from '../../src/coders/registry.js';

const parse = (reply: string, chatFiles = ['src/a.py']) => parseReply('udiff', reply, { chatFiles });

describe('parseUdiff', () => {
  it('turns each hunk into SEARCH = context + removed, REPLACE = context + added', () => {
    const reply = '```diff\n--- a/src/a.py\n+++ b/src/a.py\n@@ -40,3 +40,3 @@ def f():\n x = 1\n-y = 2\n+y = 3\n z = 4\n```\n';
    expect(parse(reply).edits).toEqual([
      {
        kind: 'replace',
        path: 'src/a.py',
        search: 'x = 1\ny = 2\nz = 4\n',
        replace: 'x = 1\ny = 3\nz = 4\n',
        index: 0,
        source: '--- a/src/a.py\n+++ b/src/a.py\n@@ -40,3 +40,3 @@ def f():\n x = 1\n-y = 2\n+y = 3\n z = 4\n',
      },
    ]);
  });

  it('keeps a/ or b/ when the prefixed path is a chat file', () => {
    const reply = '--- a/x.py\n+++ b/x.py\n@@ @@\n-1\n+2\n';
    expect(parse(reply, ['b/x.py']).edits[0]?.path).toBe('b/x.py');
    expect(parse(reply, ['x.py']).edits[0]?.path).toBe('x.py');
  });

  it('creates a file from --- /dev/null and refuses +++ /dev/null', () => {
    const created = parse('--- /dev/null\n+++ b/n.py\n@@ -0,0 +1 @@\n+print()\n');
    expect(created.edits[0]).toMatchObject({ path: 'n.py', search: '', replace: 'print()\n' });
    const deleted = parse('--- a/src/a.py\n+++ /dev/null\n@@ @@\n-x\n');
    expect(deleted.edits).toEqual([]);
    expect(deleted.problems[0]?.message).toContain('not supported');
  });

  it('drops hunks that change nothing and blank lines after a hunk', () => {
    const reply = '--- a/src/a.py\n+++ b/src/a.py\n@@ @@\n same\n@@ @@\n a\n-b\n\nThat is all.\n';
    expect(parse(reply).edits).toEqual([expect.objectContaining({ search: 'a\nb\n', replace: 'a\n', index: 0 })]);
  });

  it('asks for headers when a hunk has no file and several files are in the chat', () => {
    const result = parse('@@ @@\n-x\n+y\n', ['a.py', 'b.py']);
    expect(result.edits).toEqual([]);
    expect(result.problems).toHaveLength(1);
  });

  it('reads a removed SQL comment line as a hunk line, not a header', () => {
    const reply = '--- a/q.sql\n+++ b/q.sql\n@@ @@\n--- old note\n+-- new note\n SELECT 1;\n';
    expect(parse(reply, ['q.sql']).edits[0]).toMatchObject({ search: '-- old note\nSELECT 1;\n', replace: '-- new note\nSELECT 1;\n' });
  });
});
