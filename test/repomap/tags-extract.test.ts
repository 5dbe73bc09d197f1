// The tag extractor and grammar loader beyond the goldens: fallbacks, query errors, inheritance.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGrammarLoader, GrammarError, isCodeLanguage, languageForPath } from '../../src/platform/tree-sitter.js';
import { createTagExtractor, findQueriesDir, TagQueryError } from '../../src/repomap/extract-tags.js';

const loader = createGrammarLoader();
const temps: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-tags-'));
  temps.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('languageForPath', () => {
  it('maps extensions case-insensitively and knows data languages', () => {
    expect(languageForPath('a/b.PY')).toBe('python');
    expect(languageForPath('x.mts')).toBe('typescript');
    expect(languageForPath('x.tsx')).toBe('tsx');
    expect(languageForPath('x.hh')).toBe('cpp');
    expect(languageForPath('x.cs')).toBe('csharp');
    expect(languageForPath('Makefile')).toBeNull();
    expect(languageForPath('x.constructor')).toBeNull();
    expect(isCodeLanguage('json')).toBe(false);
    expect(isCodeLanguage('go')).toBe(true);
  });
});

describe('grammar loader', () => {
  it('loads each language once and shares one runtime between loaders', async () => {
    const other = createGrammarLoader();
    expect(await loader.language('python')).toBe(await loader.language('python'));
    expect(await loader.parser('go')).toBe(await loader.parser('go'));
    // A second loader must not re-initialise web-tree-sitter under the first one's grammars.
    const tree = (await other.parser('python')).parse('def f():\n    return 1\n');
    expect(tree?.rootNode.type).toBe('module');
    expect((await loader.parser('python')).parse('class A: pass')?.rootNode.toString()).toContain('class_definition');
  });

  it('rejects with a typed error for a missing grammar', async () => {
    const broken = createGrammarLoader({ grammarDir: await tempDir() });
    await expect(broken.language('python')).rejects.toBeInstanceOf(GrammarError);
    await expect(broken.language('python')).rejects.toMatchObject({ kind: 'grammar-missing' });
  });
});

describe('tag extractor', () => {
  it('falls back to identifiers as references when a language has no query', async () => {
    const extractor = createTagExtractor(loader, await tempDir());
    const tags = await extractor.extract('Main.kt', 'fun main() { greet(name) }\n');
    expect(tags.every((t) => t.role === 'ref' && t.kind === 'identifier')).toBe(true);
    expect(tags.map((t) => t.name)).toEqual(expect.arrayContaining(['main', 'greet', 'name']));
  });

  it('adds identifier references when the query finds definitions only', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'python.scm'), '(function_definition name: (identifier) @name.definition.function) @definition.function\n');
    const tags = await createTagExtractor(loader, dir).extract('a.py', 'def f(x):\n    return helper(x)\n');
    expect(tags).toEqual([
      { path: 'a.py', name: 'f', role: 'def', kind: 'function', line: 0, endLine: 1 },
      { path: 'a.py', name: 'x', role: 'ref', kind: 'identifier', line: 0, endLine: 0 },
      { path: 'a.py', name: 'helper', role: 'ref', kind: 'identifier', line: 1, endLine: 1 },
      { path: 'a.py', name: 'x', role: 'ref', kind: 'identifier', line: 1, endLine: 1 },
    ]);
  });

  it('reports a query that does not compile as TagQueryError', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'go.scm'), '(no_such_node) @name.definition.function\n');
    const extractor = createTagExtractor(loader, dir);
    await expect(extractor.extract('a.go', 'package a\n')).rejects.toBeInstanceOf(TagQueryError);
  });

  it('prepends inherited query files', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'base.scm'), '(call function: (identifier) @name.reference.call)\n');
    await writeFile(path.join(dir, 'python.scm'),
      '; inherits: base\n(class_definition name: (identifier) @name.definition.class) @definition.class\n');
    const tags = await createTagExtractor(loader, dir).extract('a.py', 'class A:\n    x = make()\n');
    expect(tags.map((t) => `${t.role} ${t.kind} ${t.name}`)).toEqual(['def class A', 'ref call make']);
  });

  it('prepares several languages ahead of extraction with the same tags as on demand', async () => {
    const queries = findQueriesDir(import.meta.url);
    const prepared = createTagExtractor(createGrammarLoader(), queries);
    await prepared.prepare(['typescript', 'python', 'go', 'rust']);
    const lazy = createTagExtractor(createGrammarLoader(), queries);
    const sources: Record<string, string> = {
      'a.ts': 'export class Shape { area(): number { return area(this); } }\n',
      'b.py': 'class Circle(Shape):\n    def area(self):\n        return pi()\n',
      'c.go': 'package c\nfunc Area() int { return compute() }\n',
      'd.rs': 'fn area() -> u32 { compute() }\n',
    };
    for (const [file, text] of Object.entries(sources)) {
      const tags = await prepared.extract(file, text);
      expect(tags.some((t) => t.role === 'def')).toBe(true);
      expect(tags).toEqual(await lazy.extract(file, text));
    }
  });

  it('prepares without rejecting when a language cannot load, and fails that language per file', async () => {
    const extractor = createTagExtractor(createGrammarLoader({ grammarDir: await tempDir() }), findQueriesDir(import.meta.url));
    await expect(extractor.prepare(['python'])).resolves.toBeUndefined();
    await expect(extractor.extract('a.py', 'x = 1\n')).rejects.toBeInstanceOf(GrammarError);
  });

  it('returns no tags for files without a grammar and finds the queries folder', async () => {
    const extractor = createTagExtractor(loader, findQueriesDir(import.meta.url));
    expect(await extractor.extract('notes.txt', 'hello')).toEqual([]);
    expect(findQueriesDir(import.meta.url)).toMatch(/queries$/);
  });
});
