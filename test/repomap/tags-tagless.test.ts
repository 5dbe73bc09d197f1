// Languages whose files can have no tags (TAGLESS_LANGUAGES): their grammars are never loaded, and
// that skip loses nothing: no query of ours exists for them, and the identifier fallback finds no node.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGrammarLoader, type GrammarLoader, type LanguageId } from '../../src/platform/tree-sitter.js';
import { createTagExtractor, findQueriesDir, IDENTIFIER_TYPE, TAGLESS_LANGUAGES } from '../../src/repomap/extract-tags.js';

const queriesDir = findQueriesDir(import.meta.url);
const loader = createGrammarLoader();
const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The loader, counting the grammars asked for. */
function counting(): { loader: GrammarLoader; asked: LanguageId[] } {
  const asked: LanguageId[] = [];
  return {
    asked,
    loader: {
      ...loader,
      language: (lang) => (asked.push(lang), loader.language(lang)),
      parser: (lang) => (asked.push(lang), loader.parser(lang)),
    },
  };
}

const SCRIPT = '#!/bin/sh\nbuild() {\n  make all "$@"\n}\nbuild --quiet\n';

describe('tagless languages', () => {
  it.each([...TAGLESS_LANGUAGES])('%s has no query of ours and no identifier-like node', async (lang) => {
    expect(existsSync(path.join(queriesDir, `${lang}.scm`))).toBe(false);
    const grammar = await loader.language(lang);
    const identifiers: string[] = [];
    for (let id = 0; id < grammar.nodeTypeCount; id++) {
      const type = grammar.nodeTypeForId(id);
      if (type && grammar.nodeTypeIsNamed(id) && IDENTIFIER_TYPE.test(type)) identifiers.push(type);
    }
    expect(identifiers).toEqual([]);
  });

  it('gives a shell script no tags without loading its grammar', async () => {
    const { loader: watched, asked } = counting();
    const extractor = createTagExtractor(watched, queriesDir);
    await extractor.prepare(['bash']);
    expect(await extractor.extract('build.sh', SCRIPT)).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('the grammar parses the same script into no tags either (what the skip stands for)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-tagless-'));
    temps.push(dir);
    // A query folder holding a bash query that matches nothing: the skip is off, the fallback runs.
    await writeFile(path.join(dir, 'bash.scm'), '(comment) @comment\n');
    const { loader: watched, asked } = counting();
    expect(await createTagExtractor(watched, dir).extract('build.sh', SCRIPT)).toEqual([]);
    expect(asked).toContain('bash');
  });

  it('loads the grammar when the queries folder holds a query for the language', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-tagless-'));
    temps.push(dir);
    await writeFile(path.join(dir, 'bash.scm'), '(function_definition name: (word) @name.definition.function) @definition.function\n');
    const tags = await createTagExtractor(loader, dir).extract('build.sh', SCRIPT);
    expect(tags.map((tag) => [tag.name, tag.role])).toEqual([['build', 'def']]);
  });
});
