import { describe, expect, it } from 'vitest';
import { parseReply } from '../../src/coders/registry.js';

describe('parseWhole', () => {
  it('reads each named fence as a complete file', () => {
    const reply = 'a.py\n```python\nx = 1\n```\n\n`b/c.txt`\n```\n\nline\n```\n';
    const result = parseReply('whole', reply, { chatFiles: ['a.py'] });
    expect(result.edits).toEqual([
      { kind: 'whole', path: 'a.py', content: 'x = 1\n', index: 0, source: 'a.py\n```python\nx = 1\n```\n' },
      { kind: 'whole', path: 'b/c.txt', content: '\nline\n', index: 1, source: '`b/c.txt`\n```\n\nline\n```\n' },
    ]);
  });

  it('keeps fences that belong to the file (nested with a language, or inside a longer fence)', () => {
    const nested = 'doc.md\n```md\n# t\n```js\nx()\n```\nend\n```\n';
    expect(parseReply('whole', nested, { chatFiles: ['doc.md'] }).edits[0]).toMatchObject({
      content: '# t\n```js\nx()\n```\nend\n',
    });
    const longer = 'doc.md\n~~~~\n```\nplain\n```\n~~~~\n';
    expect(parseReply('whole', longer, { chatFiles: ['doc.md'] }).edits[0]).toMatchObject({
      content: '```\nplain\n```\n',
    });
  });

  it('never writes a listing that is not closed', () => {
    const result = parseReply('whole', 'a.py\n```\nx = 1\n', { chatFiles: ['a.py'] });
    expect(result.edits).toEqual([]);
    expect(result.problems[0]).toMatchObject({ line: 2 });
  });

  it('uses the only chat file for an unnamed fence and asks for a name otherwise', () => {
    const reply = 'Updated:\n```\nnew\n```\n';
    expect(parseReply('whole', reply, { chatFiles: ['x.txt'] }).edits[0]).toMatchObject({ path: 'x.txt' });
    const two = parseReply('whole', reply, { chatFiles: ['x.txt', 'y.txt'] });
    expect(two.edits).toEqual([]);
    expect(two.problems[0]?.message).toContain('does not say which file');
  });

  it('collects shell fences as commands, not files', () => {
    const result = parseReply('whole', '```sh\n$ make test\n```\n', { chatFiles: ['Makefile'] });
    expect(result).toEqual({ edits: [], shellCommands: ['make test'], problems: [] });
  });
});
