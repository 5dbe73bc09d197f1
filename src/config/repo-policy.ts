// What a repository's own config or .env may do with a setting: tighten safety, never loosen it, never
// take the user's place (API key) or point tandem's files outside the repository.
import path from 'node:path';
import { specOf, type SettingKey } from './schema.js';

/** Where a setting's current value came from (load.ts's SettingSource). */
type Source = 'default' | 'home' | 'repo' | 'config-file' | 'dotenv' | 'env-file' | 'env' | 'flag';

/** The user's own sources: a repository's value never replaces these for a `user-first` setting. */
const USER_SOURCES: ReadonlySet<Source> = new Set(['home', 'config-file', 'env-file', 'env', 'flag']);

export interface RepoValue {
  readonly key: SettingKey;
  readonly value: unknown;
  /** The file (and variable) that set it, for warnings. */
  readonly shown: string;
  /** Where the value in effect so far came from. */
  readonly current: Source;
  readonly repoRoot: string | null;
}

/** The value to take (absent: take nothing) and one-line warnings about what was ignored. */
export type RepoVerdict = { readonly value: unknown; readonly warnings: string[] } | { readonly warnings: string[] };

export function judgeRepoValue(input: RepoValue): RepoVerdict {
  const { key, value, shown } = input;
  const policy = specOf(key).repo ?? 'allowed';
  if (policy === 'never-enable' && value === true) {
    return { warnings: [`${shown}: ${key}: ignored; the repository's config cannot turn on ${key}`] };
  }
  if (policy === 'never-disable' && value === false) {
    return { warnings: [`${shown}: ${key}: ignored; the repository's config cannot turn off ${key}`] };
  }
  if (policy === 'user-only') return { warnings: [`${shown}: ${key}: ignored; only your own config or flags can set ${key}`] };
  if (policy === 'user-first' && USER_SOURCES.has(input.current)) return { warnings: [`${shown}: ${key}: ignored; your own ${key} is used`] };
  if (policy === 'inside-repo') return keepInsideRepo(input);
  return { value, warnings: [] };
}

/** A repository's path settings must lie inside it (lexically here; the reader checks symlinks). */
function keepInsideRepo({ key, value, shown, repoRoot }: RepoValue): RepoVerdict {
  const paths = Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];
  const warnings: string[] = [];
  const inside = paths.filter((p) => {
    const ok = repoRoot !== null && isInsideRoot(repoRoot, p);
    if (!ok) warnings.push(`${shown}: ${key}: ${JSON.stringify(p)} ignored; a repository's config may only name paths inside the repository`);
    return ok;
  });
  if (Array.isArray(value)) return { value: inside, warnings };
  return inside.length === 1 ? { value: inside[0], warnings } : { warnings };
}

/** Relative paths without `..` stay inside (they resolve from a folder within the repository). */
function isInsideRoot(root: string, p: string): boolean {
  // Not platform/repo-path.ts's normalizePath on purpose: the value is judged exactly as written (no trim).
  const posixPath = p.replace(/\\/g, '/');
  if (posixPath.startsWith('~')) return false;
  if (path.isAbsolute(posixPath)) {
    const rel = path.relative(root, posixPath);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  }
  return posixPath.trim() !== '' && !posixPath.split('/').includes('..');
}

/** Fields of a model entry only the user's own files may set: what goes to the server besides the chat, and the system prompt. */
const USER_ONLY_MODEL_FIELDS = [
  ['extraHeaders', 'extra headers'],
  ['extraBody', 'extra body parameters'],
  ['systemPromptPrefix', 'a system prompt prefix'],
] as const;

/** Fields of a model entry that raise what a request may cost. */
const COST_MODEL_FIELDS = [
  ['weakModel', 'a weak model'],
  ['editorModel', 'an editor model'],
  ['prices', 'prices'],
  ['contextWindow', 'a context window above the known one'],
  ['maxOutputTokens', 'a reply size above the known one'],
] as const;
const FLAG_OF: Record<(typeof COST_MODEL_FIELDS)[number][0], string> = {
  weakModel: 'weak-model',
  editorModel: 'editor-model',
  prices: 'model-metadata-file',
  contextWindow: 'context-window',
  maxOutputTokens: 'model-metadata-file',
};

/**
 * The one place a repository's model settings or metadata entry is judged (the same trust as its config):
 * it can never set headers, extra body fields (which may carry a server, keys or costly parameters) or
 * the system prompt. Settings that raise what a request costs pass here too, for one rule to hook in.
 */
export function judgeRepoModelEntry<E extends { readonly name: string }>(
  entry: E,
  where: (field: string) => string,
  /** What tandem itself knows of the model: a repository may lower its window or reply size, never raise them. */
  builtIn?: (name: string) => { readonly contextWindow: number | null; readonly maxOutputTokens: number | null } | null,
): { readonly entry: E; readonly warnings: string[] } {
  const kept: Record<string, unknown> = { ...(entry as Record<string, unknown>) };
  const warnings: string[] = [];
  for (const [field, what] of USER_ONLY_MODEL_FIELDS) {
    if (kept[field] === undefined) continue;
    delete kept[field];
    warnings.push(`${where(field)}: ${entry.name}: ${what} ignored; a repository's model settings cannot set them`);
  }
  // What a request costs is the user's call: another model, what tokens cost, or a larger window or reply.
  for (const [field, what] of COST_MODEL_FIELDS) {
    if (kept[field] === undefined || kept[field] === null) continue;
    const value = kept[field];
    const limit = field === 'contextWindow' || field === 'maxOutputTokens' ? builtIn?.(entry.name)?.[field] : undefined;
    if (typeof value === 'number' && typeof limit === 'number' && value <= limit) continue;
    delete kept[field];
    warnings.push(`${where(field)}: ${entry.name}: ${what} ignored; it may raise what each request costs, so only your own model files (or --${FLAG_OF[field]}) can set it`);
  }
  return { entry: kept as E, warnings };
}
