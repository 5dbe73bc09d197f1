// What a repository's own config or .env may do with a setting: tighten safety, never loosen it, never
// take the user's place (API key) or point tandem's files outside the repository.
import path from 'node:path';
import { isBelow } from '../platform/path-inside.js';
import { readConfinedText } from '../platform/text-files.js';
import { pathSettingProblem, type PathSettingContext } from './path-settings.js';
import { specOf, type SettingKey, type Settings } from './schema.js';

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

/** What the path settings' trust rules look at: the values, where they came from, and the repository. */
export interface PathTrustInput {
  readonly settings: Pick<Settings, 'llm-log' | 'read'>;
  /** Where each setting came from (load.ts's SettingSource); absent: all the user's own. */
  readonly sources?: ReadonlyMap<SettingKey, Source>;
  /** The folder relative names resolve from. */
  readonly cwd: string;
  readonly paths: PathSettingContext;
  /** Whether a write at this absolute path stays inside the repository after links (cli/state-dir.ts). */
  readonly writesInside: (absolute: string) => boolean;
}

function fromRepository(input: PathTrustInput, key: SettingKey): boolean {
  const source = input.sources?.get(key);
  return source === 'repo' || source === 'dotenv';
}

/**
 * Why the llm-log may not be written (a one-line warning), or null when it may: never into `.git/`,
 * `.tandem/`, a config file or a hook, whoever named it; one a repository named must also be written
 * inside the repository.
 */
export function llmLogProblem(input: PathTrustInput): string | null {
  const file = input.settings['llm-log'];
  if (!file) return null;
  const repo = fromRepository(input, 'llm-log');
  const absolute = path.resolve(input.cwd, file);
  // A name inside the repository (whoever gave it) may run through a folder the repository linked elsewhere.
  const namesInside = repo || isBelow(input.paths.root, absolute);
  return (
    pathSettingProblem('llm-log', absolute, repo, input.paths, file) ??
    (namesInside && !input.writesInside(absolute) ? `llm-log ${file} ${repo ? "from the repository's config leads outside the repository" : 'leads outside the repository through a link'}; ignored` : null)
  );
}

/**
 * The --read files to add, with a warning for each one dropped: those a repository named must really
 * lie inside it (after symlinks), outside state and config; the user's own may lie anywhere.
 */
export function allowedReadFiles(input: PathTrustInput): { readonly files: string[]; readonly warnings: string[] } {
  const files = input.settings.read;
  if (!fromRepository(input, 'read')) return { files: [...files], warnings: [] };
  const warnings: string[] = [];
  const kept = files.filter((file) => {
    const absolute = path.resolve(input.cwd, file);
    // Outside the repository is the confined read's to say (below); here: state, git's config, hooks.
    const problem = pathSettingProblem('read', absolute, false, input.paths, file);
    if (problem) {
      warnings.push(`${problem} (named by the repository's config)`);
      return false;
    }
    const read = readConfinedText(absolute, { root: input.paths.root, shown: file });
    if (read.ok || read.kind === 'missing') return true;
    warnings.push(`read: ${read.message} (named by the repository's config)`);
    return false;
  });
  return { files: kept, warnings };
}
