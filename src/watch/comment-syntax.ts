// How comments and string literals look in each language watch mode reads, by file name. Only what a
// line scanner needs: line-comment markers, block-comment pairs, and the quotes that open strings.

export interface CommentSyntax {
  /** Markers that start a comment running to the end of the line (`#`, `//`, `--`, `;`, `%`). */
  readonly line: readonly string[];
  /** Block comments, opener and closer (`/*` `*\/`, `<!--` `-->`). */
  readonly block: readonly (readonly [string, string])[];
  /** Quotes that open a string literal on one line. */
  readonly quotes: readonly string[];
  /** Quotes whose strings may span lines (Python's triple quotes, JavaScript's template literals). */
  readonly longQuotes: readonly string[];
  /** `'` opens a string only when it closes within a few characters (Rust's lifetimes, char literals). */
  readonly shortSingleQuote?: boolean;
}

const C_BLOCK = [['/*', '*/']] as const;
const HTML_BLOCK = [['<!--', '-->']] as const;

const HASH: CommentSyntax = { line: ['#'], block: [], quotes: ['"', "'"], longQuotes: [] };
const PYTHON: CommentSyntax = { line: ['#'], block: [], quotes: ['"', "'"], longQuotes: ['"""', "'''"] };
const C_LIKE: CommentSyntax = { line: ['//'], block: C_BLOCK, quotes: ['"'], longQuotes: [], shortSingleQuote: true };
const JS_LIKE: CommentSyntax = { line: ['//'], block: C_BLOCK, quotes: ['"', "'"], longQuotes: ['`'] };
const GO: CommentSyntax = { line: ['//'], block: C_BLOCK, quotes: ['"'], longQuotes: ['`'], shortSingleQuote: true };
const CSS: CommentSyntax = { line: [], block: C_BLOCK, quotes: ['"', "'"], longQuotes: [] };
const SCSS: CommentSyntax = { line: ['//'], block: C_BLOCK, quotes: ['"', "'"], longQuotes: [] };
const PHP: CommentSyntax = { line: ['//', '#'], block: C_BLOCK, quotes: ['"', "'"], longQuotes: [] };
const DASHES: CommentSyntax = { line: ['--'], block: [], quotes: ['"', "'"], longQuotes: [] };
const SQL: CommentSyntax = { line: ['--'], block: C_BLOCK, quotes: ['"', "'"], longQuotes: [] };
const SEMICOLON: CommentSyntax = { line: [';'], block: [], quotes: ['"'], longQuotes: [] };
const INI: CommentSyntax = { line: [';', '#'], block: [], quotes: [], longQuotes: [] };
const PERCENT: CommentSyntax = { line: ['%'], block: [], quotes: [], longQuotes: [] };
const ERLANG: CommentSyntax = { line: ['%'], block: [], quotes: ['"'], longQuotes: [] };
const MARKUP: CommentSyntax = { line: [], block: HTML_BLOCK, quotes: [], longQuotes: [] };
const VUE: CommentSyntax = { line: ['//'], block: [...HTML_BLOCK, ...C_BLOCK], quotes: [], longQuotes: [] };

const BY_EXTENSION: Readonly<Record<string, CommentSyntax>> = {
  py: PYTHON, pyi: PYTHON, pyw: PYTHON,
  rb: HASH, sh: HASH, bash: HASH, zsh: HASH, fish: HASH, yaml: HASH, yml: HASH, toml: HASH, pl: HASH, pm: HASH,
  r: HASH, ex: HASH, exs: HASH, nim: HASH, cmake: HASH, jl: HASH, cr: HASH, tf: HASH, hcl: HASH, nix: HASH,
  coffee: HASH, gd: HASH, ps1: HASH, conf: HASH, mk: HASH, dockerfile: HASH,
  js: JS_LIKE, jsx: JS_LIKE, mjs: JS_LIKE, cjs: JS_LIKE, ts: JS_LIKE, tsx: JS_LIKE, mts: JS_LIKE, cts: JS_LIKE,
  c: C_LIKE, h: C_LIKE, cc: C_LIKE, cpp: C_LIKE, cxx: C_LIKE, hpp: C_LIKE, hh: C_LIKE, cs: C_LIKE, java: C_LIKE,
  rs: C_LIKE, swift: { ...JS_LIKE, longQuotes: ['"""'] }, kt: { ...C_LIKE, longQuotes: ['"""'] }, kts: { ...C_LIKE, longQuotes: ['"""'] },
  scala: { ...C_LIKE, longQuotes: ['"""'] }, dart: JS_LIKE, groovy: JS_LIKE, zig: C_LIKE, sol: JS_LIKE, proto: C_LIKE,
  jsonc: C_LIKE, m: C_LIKE, mm: C_LIKE, go: GO,
  css: CSS, scss: SCSS, less: SCSS, php: PHP,
  sql: SQL, lua: DASHES, hs: DASHES, elm: DASHES, ada: DASHES, adb: DASHES, ads: DASHES, vhd: DASHES, vhdl: DASHES,
  lisp: SEMICOLON, lsp: SEMICOLON, el: SEMICOLON, clj: SEMICOLON, cljs: SEMICOLON, cljc: SEMICOLON, scm: SEMICOLON,
  rkt: SEMICOLON, asm: SEMICOLON, s: SEMICOLON, ini: INI, cfg: INI,
  tex: PERCENT, sty: PERCENT, cls: PERCENT, erl: ERLANG, hrl: ERLANG,
  html: MARKUP, htm: MARKUP, xml: MARKUP, svg: MARKUP, md: MARKUP, markdown: MARKUP, xhtml: MARKUP, vue: VUE, svelte: VUE,
};

const BY_NAME: Readonly<Record<string, CommentSyntax>> = {
  makefile: HASH, gnumakefile: HASH, dockerfile: HASH, rakefile: HASH, gemfile: HASH, '.bashrc': HASH, '.zshrc': HASH,
};

/** The comment syntax for a repository path, or null when watch mode does not read that kind of file. */
export function commentSyntaxFor(path: string): CommentSyntax | null {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const byName = BY_NAME[base];
  if (byName) return byName;
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[base.slice(dot + 1)] ?? null;
}
