// Loads web-tree-sitter and the tree-sitter-wasms grammars on demand: one Language and one Parser
// per language per loader. web-tree-sitter is imported lazily so start-up stays light.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language, Parser } from 'web-tree-sitter';
import { TandemError } from './errors.js';
import { compileEagerly, compileOnBaselineTier } from './wasm-tiering.js';

/** Our id for a language; the grammar file is `tree-sitter-<wasm name>.wasm`. */
export type LanguageId =
  | 'bash' | 'c' | 'cpp' | 'csharp' | 'css' | 'dart' | 'elisp' | 'elixir' | 'embedded_template'
  | 'go' | 'html' | 'java' | 'javascript' | 'json' | 'kotlin' | 'lua' | 'objc' | 'ocaml' | 'php'
  | 'python' | 'rescript' | 'ruby' | 'rust' | 'scala' | 'solidity' | 'swift' | 'systemrdl'
  | 'tlaplus' | 'toml' | 'tsx' | 'typescript' | 'vue' | 'zig';

const EXTENSIONS: Readonly<Record<string, LanguageId>> = {
  '.py': 'python', '.pyi': 'python',
  '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascript',
  '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.tsx': 'tsx',
  '.go': 'go', '.rs': 'rust', '.java': 'java',
  '.c': 'c', '.h': 'c',
  '.cc': 'cpp', '.cpp': 'cpp', '.hpp': 'cpp', '.cxx': 'cpp', '.hh': 'cpp', '.hxx': 'cpp',
  '.rb': 'ruby', '.cs': 'csharp', '.php': 'php',
  '.sh': 'bash', '.bash': 'bash', '.css': 'css', '.dart': 'dart', '.el': 'elisp',
  '.ex': 'elixir', '.exs': 'elixir', '.erb': 'embedded_template', '.ejs': 'embedded_template',
  '.html': 'html', '.htm': 'html', '.json': 'json', '.kt': 'kotlin', '.kts': 'kotlin',
  '.lua': 'lua', '.m': 'objc', '.ml': 'ocaml', '.mli': 'ocaml', '.res': 'rescript',
  '.scala': 'scala', '.sc': 'scala', '.sol': 'solidity', '.swift': 'swift', '.rdl': 'systemrdl',
  '.tla': 'tlaplus', '.toml': 'toml', '.vue': 'vue', '.zig': 'zig',
};

/** Where a language id differs from its grammar's file name. */
const WASM_NAMES: Partial<Record<LanguageId, string>> = { csharp: 'c_sharp' };

/** Languages that hold data or markup, not definitions: the repo map skips them. */
const DATA_LANGUAGES: ReadonlySet<LanguageId> = new Set(['json', 'toml', 'css', 'html']);

/** Pure lookup by file extension (case-insensitive); null when no grammar covers the file. */
export function languageForPath(filePath: string): LanguageId | null {
  const ext = path.extname(filePath).toLowerCase();
  return Object.hasOwn(EXTENSIONS, ext) ? (EXTENSIONS[ext] ?? null) : null;
}

/** True for languages whose files can define code symbols (everything but data/markup). */
export function isCodeLanguage(lang: LanguageId): boolean {
  return !DATA_LANGUAGES.has(lang);
}

export class GrammarError extends TandemError {
  readonly kind: 'grammar-missing' | 'grammar-load';
  readonly language: LanguageId;
  constructor(kind: GrammarError['kind'], language: LanguageId, message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'GrammarError';
    this.kind = kind;
    this.language = language;
  }
}

export interface GrammarLoader {
  languageForPath(filePath: string): LanguageId | null;
  /** The grammar; loaded once per loader. Rejects with GrammarError. */
  language(lang: LanguageId): Promise<Language>;
  /**
   * A parser set to `lang`, shared per loader and language. Parsing is synchronous, so sharing
   * is safe on one thread; do not hold a tree across another parse's `setLanguage`.
   */
  parser(lang: LanguageId): Promise<Parser>;
  readonly grammarDir: string;
}

export interface GrammarLoaderOptions {
  /** Folder holding `tree-sitter-<name>.wasm`; defaults to the installed tree-sitter-wasms. */
  grammarDir?: string;
  /**
   * How this thread's tree-sitter runtime compiles, when this loader is the first to load it. 'tiered' (the
   * default) lets its hot functions move up to TurboFan: worth it for a map's thousands of files. 'baseline'
   * keeps it on Liftoff, for the syntax check of a few edited files: the runtime's parse function (27 KB of
   * wasm) turns hot within one small parse, and TurboFan then spends ~75 ms of CPU on it in the background,
   * which a one-shot run pays again at exit.
   */
  runtimeTier?: 'tiered' | 'baseline';
}

type WebTreeSitter = typeof import('web-tree-sitter');

/** Resolves `tree-sitter-wasms/out` from the installed package. */
function defaultGrammarDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');
}

/**
 * The versions of the tree-sitter runtime and of the grammars, e.g. `web-tree-sitter@0.25.3
 * tree-sitter-wasms@0.1.13` ('?' for one that cannot be read): tags stored across runs are keyed by it.
 */
export function grammarVersions(): string {
  return ['web-tree-sitter', 'tree-sitter-wasms'].map((name) => `${name}@${installedVersion(name)}`).join(' ');
}

/**
 * The installed package's version: Node's package lookup (`node_modules/<name>` in this module's folder or
 * one above) read directly, else the resolver's answer ('?' when there is none). Asking the resolver first
 * would cost a thrown error for a package whose `exports` hide its package.json (web-tree-sitter's do).
 */
function installedVersion(name: string): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const version = packageVersion(path.join(dir, 'node_modules', name), name);
    if (version !== null) return version;
    if (path.dirname(dir) === dir) return resolvedVersion(name);
  }
}

/** The version in the package.json above the package's resolved entry ('?' when there is none). */
function resolvedVersion(name: string): string {
  const require = createRequire(import.meta.url);
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    try {
      // A package whose `exports` hide its package.json: walk up from its entry.
      dir = path.dirname(require.resolve(name));
    } catch {
      return '?';
    }
  }
  for (;;) {
    const version = packageVersion(dir, name);
    if (version !== null) return version;
    const parent = path.dirname(dir);
    if (parent === dir) return '?';
    dir = parent;
  }
}

/** The version of `name` from `dir/package.json`; null when that file is missing, unreadable or another package's. */
function packageVersion(dir: string, name: string): string | null {
  try {
    const meta = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return meta.name === name ? String(meta.version) : null;
  } catch {
    return null;
  }
}

export function createGrammarLoader(options: GrammarLoaderOptions = {}): GrammarLoader {
  const grammarDir = options.grammarDir ?? defaultGrammarDir();
  let runtime: Promise<WebTreeSitter> | undefined;
  const languages = new Map<LanguageId, Promise<Language>>();
  const parsers = new Map<LanguageId, Promise<Parser>>();

  const loadRuntime = (): Promise<WebTreeSitter> => {
    runtime ??= import('web-tree-sitter').then(async (mod) => {
      // The wasm runtime is one per thread and init() reuses it, so each loader may call it.
      const compile = options.runtimeTier === 'baseline' ? compileOnBaselineTier : compileEagerly;
      await compile(() => mod.Parser.init());
      return mod;
    });
    return runtime;
  };

  const loadLanguage = async (lang: LanguageId): Promise<Language> => {
    const mod = await loadRuntime();
    const file = path.join(grammarDir, `tree-sitter-${WASM_NAMES[lang] ?? lang}.wasm`);
    try {
      const bytes = await readFile(file);
      // Grammar code stays on V8's baseline compiler: see compileOnBaselineTier.
      return await compileOnBaselineTier(() => mod.Language.load(bytes));
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException)?.code === 'ENOENT';
      const detail = error instanceof Error && error.message ? error.message : String(error);
      throw new GrammarError(missing ? 'grammar-missing' : 'grammar-load', lang,
        `cannot load the ${lang} grammar from ${file}: ${detail || 'unknown error'}`, error);
    }
  };

  // Two grammars loading at once in one thread can corrupt one of them (seen: "bad export type for
  // 'tree_sitter_typescript_external_scanner_create'"), so loads wait for each other.
  let loading: Promise<unknown> = Promise.resolve();
  const language = (lang: LanguageId): Promise<Language> => {
    let pending = languages.get(lang);
    if (!pending) {
      pending = loading.catch(() => undefined).then(() => loadLanguage(lang));
      loading = pending;
      // A failed load may be retried (e.g. after the file appears) instead of caching the failure.
      pending.catch(() => languages.delete(lang));
      languages.set(lang, pending);
    }
    return pending;
  };

  const parser = (lang: LanguageId): Promise<Parser> => {
    let pending = parsers.get(lang);
    if (!pending) {
      pending = Promise.all([loadRuntime(), language(lang)]).then(([mod, grammar]) =>
        new mod.Parser().setLanguage(grammar));
      pending.catch(() => parsers.delete(lang));
      parsers.set(lang, pending);
    }
    return pending;
  };

  return { languageForPath, language, parser, grammarDir };
}
