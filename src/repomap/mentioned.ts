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
  for (const [path, tags] of tagsByFile) {
    if (options.exclude.has(path)) continue;
    for (const def of definitionsNamed(tags, wanted)) wanted.get(def.name)?.push({ path, line: def.line });
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

function* definitionsNamed(tags: FileTags, wanted: ReadonlyMap<string, unknown>): Generator<{ name: string; line: number }> {
  if (!isPacked(tags)) {
    for (const tag of tags) if (tag.role === 'def' && wanted.has(tag.name)) yield tag;
    return;
  }
  const isDef = definitionKinds(tags);
  const { data, names } = tags;
  for (let i = 0; i < data.length; i += 4) {
    if (isDef[data[i + 1] ?? 0] !== true) continue;
    const name = names[data[i] ?? 0] ?? '';
    if (wanted.has(name)) yield { name, line: data[i + 2] ?? 0 };
  }
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
