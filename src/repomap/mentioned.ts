// Where the names a request mentions are defined, as a few lines for that request's own message:
// the shared map stays the same from request to request (so prompt caches can reuse it), and the
// request still points the model at `get_db` or `HTTPServer` when it names them.
import { definitionKinds, isPacked, type FileTags } from './packed-tags.js';

export interface MentionedOptions {
  /** Files whose definitions the model already has (the chat files). */
  readonly exclude: ReadonlySet<string>;
  /** The 0-based line of a file, undefined when it cannot be read. */
  readonly lineOf: (path: string, line: number) => string | undefined;
  /** At most this many definitions per name (default 3) and in all (default 12). */
  readonly perName?: number;
  readonly total?: number;
  readonly maxLineLength?: number;
}

interface Found {
  readonly path: string;
  readonly line: number;
}

/** Definitions of `names` by file, in the order the names were mentioned; '' when none is defined. */
export function mentionedDefinitions(tagsByFile: ReadonlyMap<string, FileTags>, names: readonly string[], options: MentionedOptions): string {
  if (names.length === 0) return '';
  const wanted = new Map(names.map((name): [string, Found[]] => [name, []]));
  // Files from the tag cache share one name table: find the wanted names' ids once per table and
  // compare integers, instead of a string lookup for each of a big repository's definitions.
  const idsByTable = new Map<readonly string[], Map<number, string>>();
  const idsIn = (table: readonly string[]): Map<number, string> => {
    let ids = idsByTable.get(table);
    if (ids) return ids;
    ids = new Map();
    for (let id = 0; id < table.length; id++) if (wanted.has(table[id] ?? '')) ids.set(id, table[id]!);
    idsByTable.set(table, ids);
    return ids;
  };
  for (const [path, tags] of tagsByFile) {
    if (options.exclude.has(path)) continue;
    for (const def of definitionsNamed(tags, wanted, idsIn)) wanted.get(def.name)?.push({ path, line: def.line });
  }
  const perName = options.perName ?? 3;
  const lines: string[] = [];
  for (const [, found] of wanted) {
    found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
    for (const { path, line } of found.slice(0, perName)) {
      const text = options.lineOf(path, line);
      if (text !== undefined) lines.push(`${path}:${line + 1}: ${cut(text.trim(), options.maxLineLength ?? 100)}`);
    }
  }
  return lines.slice(0, options.total ?? 12).join('\n');
}

function definitionsNamed(
  tags: FileTags,
  wanted: ReadonlyMap<string, unknown>,
  idsIn: (table: readonly string[]) => ReadonlyMap<number, string>,
): Array<{ name: string; line: number }> {
  if (!isPacked(tags)) return tags.filter((tag) => tag.role === 'def' && wanted.has(tag.name));
  const ids = idsIn(tags.names);
  if (ids.size === 0) return [];
  const found: Array<{ name: string; line: number }> = [];
  const { data } = tags;
  let isDef: boolean[] | undefined;
  for (let i = 0; i < data.length; i += 4) {
    const name = ids.get(data[i] ?? -1);
    if (name === undefined) continue;
    isDef ??= definitionKinds(tags);
    if (isDef[data[i + 1] ?? 0] === true) found.push({ name, line: data[i + 2] ?? 0 });
  }
  return found;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
