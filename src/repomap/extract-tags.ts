// Turns one file's text into tags: parse with its grammar, run our tags query from `queries/`,
// and fall back to the file's identifiers as references when the query yields none.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node, Query, Tree } from 'web-tree-sitter';
import type { GrammarLoader, LanguageId } from '../platform/tree-sitter.js';
import type { Tag } from './tag.js';

export interface TagExtractor {
  /** Tags of one file, sorted by line then column; [] for a file no grammar covers. */
  extract(filePath: string, text: string): Promise<Tag[]>;
}

export class TagQueryError extends Error {
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
    if (existsSync(path.join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no queries/ folder above ${moduleUrl}`);
    dir = parent;
  }
}

const NAME_PREFIX = 'name.';
const DEFINITION_PREFIX = 'definition.';
// Leaves that name something, across grammars (identifier, type_identifier, field_identifier,
// property_identifier, constant in Ruby, name in PHP...).
const IDENTIFIER_TYPE = /(^|_)identifier$|^constant$|^name$/;
const MAX_NAME_LENGTH = 200;

interface Found { tag: Tag; column: number; pattern: number }

export function createTagExtractor(loader: GrammarLoader, queriesDir: string): TagExtractor {
  const queries = new Map<LanguageId, Promise<Query | null>>();

  const loadQuery = async (lang: LanguageId): Promise<Query | null> => {
    const file = path.join(queriesDir, `${lang}.scm`);
    const source = await readQuerySource(queriesDir, lang, []);
    if (source === null) return null;
    const [grammar, { Query: QueryClass }] = await Promise.all([loader.language(lang), import('web-tree-sitter')]);
    try {
      return new QueryClass(grammar, source);
    } catch (error) {
      throw new TagQueryError(lang, `${file}: ${error instanceof Error ? error.message : String(error)}`, error);
    }
  };

  const queryFor = (lang: LanguageId): Promise<Query | null> => {
    let pending = queries.get(lang);
    if (!pending) {
      pending = loadQuery(lang);
      queries.set(lang, pending);
    }
    return pending;
  };

  const extract = async (filePath: string, text: string): Promise<Tag[]> => {
    const lang = loader.languageForPath(filePath);
    if (!lang) return [];
    const [parser, query] = await Promise.all([loader.parser(lang), queryFor(lang)]);
    const tree = parser.parse(text);
    if (!tree) return [];
    try {
      return tagsOfTree(filePath, tree, query);
    } finally {
      tree.delete();
    }
  };

  return { extract };
}

// A query file may start with `; inherits: a, b`: those files' patterns come first, so shared
// patterns (JavaScript's, for TypeScript) live in one place.
const INHERITS = /^;\s*inherits:\s*(.+)$/m;

async function readQuerySource(dir: string, name: string, seen: string[]): Promise<string | null> {
  if (seen.includes(name)) throw new Error(`query inheritance cycle: ${[...seen, name].join(' -> ')}`);
  const source = await readFile(path.join(dir, `${name}.scm`), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
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

function tagsOfTree(filePath: string, tree: Tree, query: Query | null): Tag[] {
  const found = query ? runQuery(filePath, tree, query) : new Map<string, Found>();
  // A definition's own name is not a reference to it.
  for (const key of [...found.keys()]) {
    if (key.startsWith('ref:') && found.has(`def:${key.slice(4)}`)) found.delete(key);
  }
  const hasRefs = [...found.values()].some((f) => f.tag.role === 'ref');
  if (!hasRefs) addIdentifierRefs(filePath, tree.rootNode, found);
  return [...found.values()]
    .sort((a, b) => a.tag.line - b.tag.line || a.column - b.column || a.tag.role.localeCompare(b.tag.role))
    .map((f) => f.tag);
}

function runQuery(filePath: string, tree: Tree, query: Query): Map<string, Found> {
  // Keyed by role and name position: when several patterns capture one name, the earliest
  // pattern in the .scm file wins, so specific patterns (method) go before general ones (function).
  const found = new Map<string, Found>();
  for (const match of query.matches(tree.rootNode)) {
    const definitions = new Map<string, Node>();
    for (const capture of match.captures) {
      if (capture.name.startsWith(DEFINITION_PREFIX)) {
        definitions.set(capture.name.slice(DEFINITION_PREFIX.length), capture.node);
      }
    }
    for (const capture of match.captures) {
      if (!capture.name.startsWith(NAME_PREFIX)) continue;
      const [roleWord, kind] = capture.name.slice(NAME_PREFIX.length).split('.', 2);
      if (!kind || (roleWord !== 'definition' && roleWord !== 'reference')) continue;
      const role = roleWord === 'definition' ? 'def' : 'ref';
      const node = capture.node;
      // Ruby's `attr_reader :name` defines `name`; the grammar only gives the whole symbol.
      const name = node.type === 'simple_symbol' ? node.text.slice(1) : node.text;
      if (!name || name.length > MAX_NAME_LENGTH || name.includes('\n')) continue;
      const key = `${role}:${node.startIndex}`;
      const previous = found.get(key);
      if (previous && previous.pattern <= match.patternIndex) continue;
      const line = node.startPosition.row;
      const endLine = role === 'def' ? definitionEnd(line, definitions.get(kind)) : line;
      found.set(key, {
        tag: { path: filePath, name, role, kind, line, endLine },
        column: node.startPosition.column,
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
function addIdentifierRefs(filePath: string, root: Node, found: Map<string, Found>): void {
  const cursor = root.walk();
  try {
    for (;;) {
      if (cursor.gotoFirstChild()) continue;
      const type = cursor.nodeType;
      if (cursor.nodeIsNamed && IDENTIFIER_TYPE.test(type) && !found.has(`def:${cursor.startIndex}`)) {
        const name = cursor.nodeText;
        if (name && name.length <= MAX_NAME_LENGTH && !name.includes('\n')) {
          const line = cursor.startPosition.row;
          found.set(`ref:${cursor.startIndex}`, {
            tag: { path: filePath, name, role: 'ref', kind: 'identifier', line, endLine: line },
            column: cursor.startPosition.column,
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
