// Turns one file's text into tags: parse with its grammar, run our tags query from `queries/`,
// and fall back to the file's identifiers as references when the query yields none.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node, Query, Tree } from 'web-tree-sitter';
import { pathExists, readTextOrNull } from '../platform/tag-files.js';
import type { GrammarLoader, LanguageId } from '../platform/tree-sitter.js';
import type { Tag } from './tag.js';
import { TandemError } from '../platform/errors.js';

export interface TagExtractor {
  /** Tags of one file, sorted by line then column; [] for a file no grammar covers. */
  extract(filePath: string, text: string): Promise<Tag[]>;
  /**
   * Loads the grammars and compiles the queries of `languages` ahead of the first file. Do not
   * call `extract` until it settles (grammar loads must not overlap). Never rejects: a language
   * that fails here fails again, per file, in `extract`.
   */
  prepare(languages: readonly LanguageId[]): Promise<void>;
}

export class TagQueryError extends TandemError {
  readonly kind = 'query-compile' as const;
  readonly language: LanguageId;
  constructor(language: LanguageId, message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'TagQueryError';
    this.language = language;
  }
}

/** Walks up from a module URL to the package folder holding `queries/` (works from src/ and dist/). */
export function findQueriesDir(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const candidate = path.join(dir, 'queries');
    if (pathExists(path.join(dir, 'package.json')) && pathExists(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no queries/ folder above ${moduleUrl}`);
    dir = parent;
  }
}

const NAME_PREFIX = 'name.';
const DEFINITION_PREFIX = 'definition.';
// Leaves that name something, across grammars (identifier, type_identifier, field_identifier,
// property_identifier, constant in Ruby, name in PHP...).
export const IDENTIFIER_TYPE = /(^|_)identifier$|^constant$|^name$/;

/**
 * Languages with no tags query (queries/) whose grammars have no named node IDENTIFIER_TYPE
 * matches either (test/repomap/tags-tagless.test.ts checks both): every file of theirs has no tags,
 * so while the queries folder holds no query for one, its grammar is never loaded. A shell script
 * in a small repository cost a 1.4 MB grammar compile (~70 ms, while other threads' grammar
 * compiles waited) for nothing.
 */
export const TAGLESS_LANGUAGES: ReadonlySet<LanguageId> = new Set(['bash', 'elisp', 'embedded_template', 'systemrdl', 'vue']);
const MAX_NAME_LENGTH = 200;

interface Found { tag: Tag; pattern: number }

export function createTagExtractor(loader: GrammarLoader, queriesDir: string): TagExtractor {
  const queries = new Map<LanguageId, Promise<TagQuery | null>>();

  const loadQuery = async (lang: LanguageId): Promise<TagQuery | null> => {
    const file = path.join(queriesDir, `${lang}.scm`);
    const source = await readQuerySource(queriesDir, lang, []);
    if (source === null) return null;
    const [grammar, { Query: QueryClass }] = await Promise.all([loader.language(lang), import('web-tree-sitter')]);
    let query: Query;
    try {
      query = new QueryClass(grammar, source);
    } catch (error) {
      throw new TagQueryError(lang, `${file}: ${error instanceof Error ? error.message : String(error)}`, error);
    }
    return { query, meanings: captureMeanings(query.captureNames) };
  };

  // Only while no query of ours exists for the language (a queries folder of someone else's may hold one).
  const taglessKnown = new Map<LanguageId, boolean>();
  const tagless = (lang: LanguageId): boolean => {
    if (!TAGLESS_LANGUAGES.has(lang)) return false;
    let known = taglessKnown.get(lang);
    if (known === undefined) {
      known = !pathExists(path.join(queriesDir, `${lang}.scm`));
      taglessKnown.set(lang, known);
    }
    return known;
  };

  const queryFor = (lang: LanguageId): Promise<TagQuery | null> => {
    let pending = queries.get(lang);
    if (!pending) {
      pending = loadQuery(lang);
      queries.set(lang, pending);
    }
    return pending;
  };

  const extract = async (filePath: string, text: string): Promise<Tag[]> => {
    const lang = loader.languageForPath(filePath);
    if (!lang || tagless(lang)) return [];
    const [parser, query] = await Promise.all([loader.parser(lang), queryFor(lang)]);
    const tree = parser.parse(text);
    if (!tree) return [];
    try {
      return tagsOfTree(filePath, tree, query);
    } finally {
      tree.delete();
    }
  };

  // One language after another: web-tree-sitter links grammars into one wasm instance, and two
  // loads at once sometimes bind one grammar's symbols to the other's (seen: "bad export type").
  const prepare = async (languages: readonly LanguageId[]): Promise<void> => {
    for (const lang of languages) {
      if (tagless(lang)) continue;
      await Promise.all([loader.parser(lang), queryFor(lang)]).catch(() => undefined);
    }
  };

  return { extract, prepare };
}

// A query file may start with `; inherits: a, b`: those files' patterns come first, so shared
// patterns (JavaScript's, for TypeScript) live in one place.
const INHERITS = /^;\s*inherits:\s*(.+)$/m;

async function readQuerySource(dir: string, name: string, seen: string[]): Promise<string | null> {
  if (seen.includes(name)) throw new Error(`query inheritance cycle: ${[...seen, name].join(' -> ')}`);
  const source = await readTextOrNull(path.join(dir, `${name}.scm`));
  if (source === null) return null;
  const parents = INHERITS.exec(source.split('\n', 3).join('\n'))?.[1]?.split(',').map((p) => p.trim()) ?? [];
  const inherited: string[] = [];
  for (const parent of parents.filter(Boolean)) {
    const text = await readQuerySource(dir, parent, [...seen, name]);
    if (text === null) throw new Error(`${name}.scm inherits ${parent}.scm, which does not exist`);
    inherited.push(text);
  }
  return [...inherited, source].join('\n');
}

/** What a capture name says, worked out once per query instead of once per capture. */
type CaptureMeaning =
  | { readonly type: 'name'; readonly role: 'def' | 'ref'; readonly kind: string }
  | { readonly type: 'definition'; readonly kind: string };

/** A compiled query with the meaning of each of its capture names (names we ignore are absent). */
interface TagQuery {
  readonly query: Query;
  readonly meanings: ReadonlyMap<string, CaptureMeaning>;
}

function captureMeanings(captureNames: readonly string[]): Map<string, CaptureMeaning> {
  const meanings = new Map<string, CaptureMeaning>();
  for (const name of captureNames) {
    if (name.startsWith(DEFINITION_PREFIX)) {
      meanings.set(name, { type: 'definition', kind: name.slice(DEFINITION_PREFIX.length) });
      continue;
    }
    if (!name.startsWith(NAME_PREFIX)) continue;
    const [roleWord, kind] = name.slice(NAME_PREFIX.length).split('.', 2);
    if (!kind || (roleWord !== 'definition' && roleWord !== 'reference')) continue;
    meanings.set(name, { type: 'name', role: roleWord === 'definition' ? 'def' : 'ref', kind });
  }
  return meanings;
}

/**
 * Found tags keyed by name position and role as one number (a string key per capture showed in
 * profiles): twice the start index, plus one for a definition.
 */
type FoundTags = Map<number, Found>;

function foundKey(role: 'def' | 'ref', startIndex: number): number {
  return startIndex * 2 + (role === 'def' ? 1 : 0);
}

function tagsOfTree(filePath: string, tree: Tree, query: TagQuery | null): Tag[] {
  const found: FoundTags = query ? runQuery(filePath, tree, query) : new Map();
  // A definition's own name is not a reference to it. (Even keys are references; deleting the
  // entry being visited is safe in a Map's iteration.)
  let hasRefs = false;
  for (const key of found.keys()) {
    if ((key & 1) === 1) continue;
    if (found.has(key + 1)) found.delete(key);
    else hasRefs = true;
  }
  if (!hasRefs) addIdentifierRefs(filePath, tree.rootNode, found);
  // Position, then definitions before references. A key is twice the name's start index plus one
  // for a definition (so unique), and position order is start-index order: flipping the low bit
  // puts a definition first, and typed arrays sort numbers natively (comparing objects in a sort,
  // or making a key object per tag, showed in worker profiles).
  const order = Int32Array.from(found.keys(), (key) => key ^ 1).sort();
  const tags: Tag[] = new Array<Tag>(order.length);
  for (let i = 0; i < order.length; i++) tags[i] = (found.get((order[i] ?? 0) ^ 1) as Found).tag;
  return tags;
}

function runQuery(filePath: string, tree: Tree, { query, meanings }: TagQuery): FoundTags {
  // Keyed by role and name position: when several patterns capture one name, the earliest
  // pattern in the .scm file wins, so specific patterns (method) go before general ones (function).
  const found: FoundTags = new Map();
  for (const match of query.matches(tree.rootNode)) {
    let definitions: Map<string, Node> | undefined;
    for (const capture of match.captures) {
      const meaning = meanings.get(capture.name);
      if (meaning?.type === 'definition') (definitions ??= new Map()).set(meaning.kind, capture.node);
    }
    for (const capture of match.captures) {
      const meaning = meanings.get(capture.name);
      if (meaning?.type !== 'name') continue;
      const { role, kind } = meaning;
      const node = capture.node;
      const key = foundKey(role, node.startIndex);
      const previous = found.get(key);
      if (previous && previous.pattern <= match.patternIndex) continue;
      const text = node.text;
      // Ruby's `attr_reader :name` defines `name`; the grammar only gives the whole symbol.
      // (The type is asked only when it can matter: every such symbol starts with a colon.)
      const name = text.startsWith(':') && node.type === 'simple_symbol' ? text.slice(1) : text;
      if (!name || name.length > MAX_NAME_LENGTH || name.includes('\n')) continue;
      const line = node.startPosition.row;
      const endLine = role === 'def' ? definitionEnd(line, definitions?.get(kind)) : line;
      found.set(key, {
        tag: { path: filePath, name, role, kind, line, endLine },
        pattern: match.patternIndex,
      });
    }
  }
  return found;
}

/** Last line of a definition; a node ending at column 0 (a `#define` with its newline) ends a line earlier. */
function definitionEnd(line: number, definition: Node | undefined): number {
  if (!definition) return line;
  const end = definition.endPosition;
  return Math.max(line, end.column === 0 && end.row > line ? end.row - 1 : end.row);
}

/** References from every identifier-like leaf that is not itself a definition's name. */
function addIdentifierRefs(filePath: string, root: Node, found: FoundTags): void {
  const cursor = root.walk();
  try {
    for (;;) {
      if (cursor.gotoFirstChild()) continue;
      const type = cursor.nodeType;
      if (cursor.nodeIsNamed && IDENTIFIER_TYPE.test(type) && !found.has(foundKey('def', cursor.startIndex))) {
        const name = cursor.nodeText;
        if (name && name.length <= MAX_NAME_LENGTH && !name.includes('\n')) {
          const line = cursor.startPosition.row;
          found.set(foundKey('ref', cursor.startIndex), {
            tag: { path: filePath, name, role: 'ref', kind: 'identifier', line, endLine: line },
            pattern: Number.MAX_SAFE_INTEGER,
          });
        }
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
      }
    }
  } finally {
    cursor.delete();
  }
}
