// Names a model writes for a file it means but does not spell right, decided before planning:
// - the example folder of our own prompts (`path/to/file.ext`): never created; the rest of the path is
//   used when it names one chat file, else the model is asked for the real path;
// - a near-miss extension (`postcss.config.cjs` for the chat's `postcss.config.js`): the same folder and
//   stem, an extension of the same language family, exactly one such chat file, and the written name
//   does not exist. A file that exists is always what it says.
import { resolvePath } from './filename.js';

export type Redirect =
  | { readonly kind: 'moved'; readonly to: string; readonly why: 'placeholder' | 'near_miss' }
  | { readonly kind: 'placeholder'; readonly prefix: string };

export interface RedirectContext {
  readonly chatFiles: readonly string[];
  /** True when the repository (or the plan so far) has this file. */
  readonly exists: (path: string) => boolean;
  /** True when the repository has this folder: then `path/to/` is a real folder, not the example one. */
  readonly folderExists?: (folder: string) => boolean;
}

// The example folders our prompts and common model habits use as a stand-in for a real location.
const PLACEHOLDER_RE = /^(?:path\/to|path\/to\/your|your\/path\/to|path\/to\/your\/project)\//i;

// Extensions a model swaps within one language: the file is the same, only the suffix is misremembered.
const FAMILIES: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['js', 'cjs', 'mjs', 'jsx']),
  new Set(['ts', 'cts', 'mts', 'tsx']),
  new Set(['yml', 'yaml']),
  new Set(['htm', 'html']),
  new Set(['md', 'markdown']),
  new Set(['sh', 'bash']),
  new Set(['jsonc', 'json', 'json5']),
];

/** The example-folder prefix `path` starts with (`path/to`, no slash), or undefined. */
export function placeholderFolder(path: string): string | undefined {
  return PLACEHOLDER_RE.exec(path)?.[0].slice(0, -1);
}

/** Undefined when `path` is to be used as written. */
export function redirectPath(path: string, ctx: RedirectContext): Redirect | undefined {
  if (ctx.exists(path) || ctx.chatFiles.includes(path)) return undefined;
  const placeholder = PLACEHOLDER_RE.exec(path);
  if (placeholder && ctx.folderExists?.(placeholder[0].slice(0, -1)) !== true) {
    const rest = path.slice(placeholder[0].length);
    const resolved = resolvePath(rest, ctx.chatFiles);
    if (ctx.chatFiles.includes(resolved)) return { kind: 'moved', to: resolved, why: 'placeholder' };
    return { kind: 'placeholder', prefix: placeholder[0] };
  }
  const near = nearMiss(path, ctx.chatFiles);
  return near === undefined ? undefined : { kind: 'moved', to: near, why: 'near_miss' };
}

function splitName(path: string): { stem: string; ext: string } | undefined {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot <= slash + 1) return undefined;
  return { stem: path.slice(0, dot), ext: path.slice(dot + 1).toLowerCase() };
}

function nearMiss(path: string, chatFiles: readonly string[]): string | undefined {
  const written = splitName(path);
  if (!written) return undefined;
  const family = FAMILIES.find((f) => f.has(written.ext));
  if (!family) return undefined;
  // Every chat file of that stem counts: with two (x.js and x.ts) the model's meaning is a guess.
  const sameStem = chatFiles.filter((chat) => splitName(chat)?.stem === written.stem);
  const only = sameStem.length === 1 ? sameStem[0] : undefined;
  const ext = only === undefined ? undefined : splitName(only)?.ext;
  return only !== undefined && ext !== undefined && ext !== written.ext && family.has(ext) ? only : undefined;
}
