import { describe, expect, it } from 'vitest';
import { checkSyntax, describeSyntaxProblems } from '../../src/checks/syntax-check.js';
import { createGrammarLoader } from '../../src/platform/tree-sitter.js';

const loader = createGrammarLoader();

const goodPython = `def add(a, b):
    return a + b


class Box:
    def size(self):
        return 3
`;

const goodTs = `export function add(a: number, b: number): number {
  return a + b;
}

export class Box {
  size(): number {
    return 3;
  }
}
`;

describe('checkSyntax', () => {
  it('finds nothing in valid Python, TypeScript and TSX', async () => {
    expect((await checkSyntax(loader, 'a.py', null, goodPython)).problems).toEqual([]);
    expect((await checkSyntax(loader, 'a.ts', null, goodTs)).problems).toEqual([]);
    const tsx = 'export const A = (p: { n: number }) => <div className="x">{p.n}</div>;\n';
    expect((await checkSyntax(loader, 'a.tsx', null, tsx)).problems).toEqual([]);
  });

  it('reports the line an edit broke in Python', async () => {
    const broken = goodPython.replace('    def size(self):', '    def size(self:');
    const result = await checkSyntax(loader, 'pkg/box.py', goodPython, broken);
    expect(result.language).toBe('python');
    expect(result.problems.length).toBeGreaterThan(0);
    expect(result.problems[0]?.line).toBe(6);
    expect(describeSyntaxProblems('pkg/box.py', result.problems)).toMatch(/^pkg\/box\.py:6: syntax error/);
  });

  it('reports a missing token in TypeScript with its line', async () => {
    const broken = goodTs.replace('    return 3;', '    return (3;');
    const result = await checkSyntax(loader, 'src/box.ts', goodTs, broken);
    expect(result.problems.length).toBeGreaterThan(0);
    expect(result.problems.map((p) => p.line)).toContain(7);
  });

  it('reports errors in TSX', async () => {
    const before = 'export const A = () => <div>hi</div>;\n';
    const after = 'export const A = () => <div>{hi</div>;\n';
    const result = await checkSyntax(loader, 'a.tsx', before, after);
    expect(result.problems.length).toBeGreaterThan(0);
  });

  it('does not report an error the file already had, even after it moved', async () => {
    const alreadyBroken = goodPython.replace('    return a + b', '    return a +');
    const edited = `import os\n\n${alreadyBroken}\n\ndef extra():\n    return os.sep\n`;
    const before = await checkSyntax(loader, 'a.py', null, alreadyBroken);
    expect(before.problems.length).toBeGreaterThan(0);
    expect((await checkSyntax(loader, 'a.py', alreadyBroken, edited)).problems).toEqual([]);
  });

  it('reports a new error next to an old one', async () => {
    const alreadyBroken = goodPython.replace('    return a + b', '    return a +');
    const worse = alreadyBroken.replace('        return 3', '        return [3');
    const result = await checkSyntax(loader, 'a.py', alreadyBroken, worse);
    expect(result.problems.length).toBeGreaterThan(0);
    expect(result.problems.every((p) => p.line >= 5)).toBe(true);
  });

  it('reports everything in a new file and skips files without a grammar', async () => {
    expect((await checkSyntax(loader, 'new.js', null, 'function f( {\n')).problems.length).toBeGreaterThan(0);
    expect(await checkSyntax(loader, 'notes.txt', null, '((((')).toEqual({ language: null, problems: [] });
  });
});
