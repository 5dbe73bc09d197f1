import { describe, expect, it } from 'vitest';
import { parseReply } from '../../src/coders/registry.js';
import type { ReplaceEdit } from '../../src/edits/types.js';

const block = (name: string, search: string, replace: string): string =>
  `${name}\n\`\`\`\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n\`\`\`\n`;

function edits(reply: string, chatFiles: string[] = ['a.py', 'src/b.py']): ReplaceEdit[] {
  return parseReply('diff', reply, { chatFiles }).edits as ReplaceEdit[];
}

describe('parseSearchReplace', () => {
  it('keeps the text between markers exactly, each line with its newline', () => {
    const [e] = edits(block('a.py', '  x = 1  \n\n', '\ty = 2\n'));
    expect(e).toMatchObject({ kind: 'replace', path: 'a.py', search: '  x = 1  \n\n', replace: '\ty = 2\n', index: 0 });
  });

  it('reads an empty SEARCH as a new file and an empty REPLACE as a deletion', () => {
    const [create, remove] = edits(block('new.py', '', 'print(1)\n') + block('a.py', 'gone\n', ''));
    expect(create).toMatchObject({ path: 'new.py', search: '', replace: 'print(1)\n' });
    expect(remove).toMatchObject({ path: 'a.py', search: 'gone\n', replace: '' });
  });

  it.each([
    ['a.py'],
    ['`a.py`'],
    ['**a.py**'],
    ['# a.py'],
    ['./a.py'],
    ['a.py:'],
    ['**`./a.py`**:'],
    ['File: a.py'],
  ])('accepts the file name written as %s', (name) => {
    expect(edits(block(name, 'x\n', 'y\n'), ['a.py', 'c.py'])[0]?.path).toBe('a.py');
  });

  it('accepts 5 to 9 marker characters, trailing spaces and any case, rejects 4 and 10', () => {
    for (const n of [5, 6, 7, 8, 9]) {
      const reply = `a.py\n${'<'.repeat(n)} search  \nx\n${'='.repeat(n)}  \ny\n${'>'.repeat(n)} Replace \n`;
      expect(edits(reply)).toHaveLength(1);
    }
    for (const n of [4, 10]) {
      const reply = `a.py\n${'<'.repeat(n)} SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n`;
      const result = parseReply('diff', reply, { chatFiles: ['a.py'] });
      expect(result.edits).toHaveLength(0);
      expect(result.problems[0]?.line).toBe(2);
    }
  });

  it('resolves a unique basename or path tail to the chat file, and leaves unknown paths alone', () => {
    expect(edits(block('b.py', 'x\n', 'y\n'))[0]?.path).toBe('src/b.py');
    expect(edits(block('lib/b.py', 'x\n', 'y\n'))[0]?.path).toBe('lib/b.py');
    expect(edits(block('b.py', 'x\n', 'y\n'), ['src/b.py', 'test/b.py'])[0]?.path).toBe('b.py');
  });

  it('does not take a sentence for a file name', () => {
    const reply = 'Here is the fix for the bug:\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n';
    const result = parseReply('diff', reply, { chatFiles: ['a.py', 'b.py'] });
    expect(result.edits).toHaveLength(0);
    expect(result.problems[0]?.message).toContain('does not say which file');
  });

  it('numbers edits in reply order and quotes each block as its source', () => {
    const reply = block('a.py', 'x\n', 'y\n') + 'then\n' + block('src/b.py', 'p\n', 'q\n');
    const result = edits(reply);
    expect(result.map((e) => [e.index, e.path])).toEqual([[0, 'a.py'], [1, 'src/b.py']]);
    expect(result[1]?.source).toBe('src/b.py\n```\n<<<<<<< SEARCH\np\n=======\nq\n>>>>>>> REPLACE\n');
  });

  it('reports a block missing its REPLACE line and keeps the valid one after it', () => {
    const reply = 'a.py\n```\n<<<<<<< SEARCH\nx\n=======\ny\n```\n' + block('src/b.py', 'p\n', 'q\n');
    const result = parseReply('diff', reply, { chatFiles: ['a.py', 'src/b.py'] });
    expect(result.edits.map((e) => e.path)).toEqual(['src/b.py']);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ line: 3 });
    expect(result.problems[0]?.message).toContain('>>>>>>> REPLACE');
  });

  it('reports a block cut off at the end of the reply', () => {
    const result = parseReply('diff', 'a.py\n<<<<<<< SEARCH\nx\n=======\ny', { chatFiles: ['a.py'] });
    expect(result.edits).toEqual([]);
    expect(result.problems[0]?.message).toContain('before the reply ends');
  });

  it('ignores CRLF line endings in the reply', () => {
    const reply = block('a.py', 'x\n', 'y\n').replace(/\n/g, '\r\n');
    expect(edits(reply)[0]).toMatchObject({ search: 'x\n', replace: 'y\n' });
  });

  it('treats a shell fence that holds a block as an edit, not commands', () => {
    const reply = '```bash\nrun.sh\n<<<<<<< SEARCH\necho 1\n=======\necho 2\n>>>>>>> REPLACE\n```\n';
    const result = parseReply('diff', reply, { chatFiles: ['run.sh'] });
    expect(result.shellCommands).toEqual([]);
    expect(result.edits[0]).toMatchObject({ path: 'run.sh', search: 'echo 1\n' });
  });

  it('returns nothing for a reply without blocks', () => {
    expect(parseReply('diff-fenced', 'Sure, what file?', { chatFiles: [] })).toEqual({
      edits: [],
      shellCommands: [],
      problems: [],
    });
  });
});
