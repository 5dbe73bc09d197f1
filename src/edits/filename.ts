// Recognising the file name a model wrote above an edit block, and resolving it to a chat file.
// Lenient about decoration (backticks, bold, `#`, `./`, trailing colon), strict about prose.

import { parseFenceOpen } from './fences.js';
import { normalizePath } from '../platform/repo-path.js';

/** Names without an extension that are still plainly file names. */
const EXTENSIONLESS = new Set([
  'makefile',
  'dockerfile',
  'containerfile',
  'gemfile',
  'rakefile',
  'procfile',
  'justfile',
  'vagrantfile',
  'jenkinsfile',
  'brewfile',
  'license',
  'readme',
  'changelog',
  'authors',
  'codeowners',
]);

const LABEL_RE = /^(?:file ?name|file|path)\s*:\s*/i;

export { normalizePath } from '../platform/repo-path.js';

/**
 * Maps a written path to a chat file when the intent is unambiguous: an exact match, a bare name
 * whose basename belongs to exactly one chat file, or a path that is the tail of exactly one
 * chat file's path (the model dropped leading folders). Anything else is returned as written.
 */
export function resolvePath(raw: string, chatFiles: readonly string[]): string {
  const p = normalizePath(raw);
  if (chatFiles.includes(p)) return p;
  const hits = p.includes('/')
    ? chatFiles.filter((f) => f.endsWith(`/${p}`))
    : chatFiles.filter((f) => basename(f) === p);
  return hits.length === 1 && hits[0] !== undefined ? hits[0] : p;
}

function basename(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? p : p.slice(i + 1);
}

/** Removes the decoration models put around a file name, in any order; `quoted` when it was a code span. */
function stripDecoration(text: string): { name: string; quoted: boolean } {
  let s = text.trim();
  let quoted = false;
  for (let round = 0; round < 4; round++) {
    const before = s;
    s = s.replace(/^(?:#{1,6}|\/\/)\s+/, '');
    s = s.replace(LABEL_RE, '');
    s = s.replace(/:$/, '').trim();
    if (/^(\*\*|__).+\1$/.test(s)) s = s.slice(2, -2).trim();
    if (/^\*[^*].*\*$/.test(s)) s = s.slice(1, -1).trim();
    if (/^`[^`]+`$/.test(s)) {
      s = s.slice(1, -1).trim();
      quoted = true;
    }
    if (s === before) break;
  }
  return { name: s, quoted };
}

// Letters of any script count (`données.py`); a name with spaces counts only as a code span (`my notes.txt`).
const NAME_CHARS = /^[\p{L}\p{N}\p{M}_.@~+\-/\\[\]()$,=%#]+$/u;
// With spaces, no `=`, `$` or ` -`: `PORT=8080 node server.js` and `eslint --fix a.js` are commands.
const QUOTED_NAME_CHARS = /^(?!.* -)[\p{L}\p{N}\p{M}_.@~+\-/\\[\](),%# ]+$/u;
// `python manage.py` in backticks is a command, not a file name with a space.
const COMMAND_START = /^(?:python[\d.]*|node|npm|npx|bash|sh|zsh|ruby|go|cargo|pytest|deno|bun|yarn|pnpm|make|run|cd|cat|git|uv|pip[\d.]*) /i;
const EXTENSION = /\.[\p{L}\p{N}_-]+$/u;

/** True when `name` (already stripped) reads as a path rather than a word of prose. */
function looksLikePath(name: string, chatFiles: readonly string[], quoted = false): boolean {
  if (name === '' || name.length > 250) return false;
  const p = normalizePath(name);
  if (chatFiles.includes(p) || chatFiles.includes(resolvePath(p, chatFiles))) return true;
  if (/[\t\n\r]/.test(name) || /[`*<>|"'?]/.test(name) || name.includes('://')) return false;
  if (!(quoted ? QUOTED_NAME_CHARS : NAME_CHARS).test(name) || / {2}|^ | $/.test(name) || COMMAND_START.test(name)) return false;
  if (/^[.\-=]+$/.test(name) || name.endsWith('.')) return false;
  if (name.includes('/') || name.includes('\\')) return true;
  if (EXTENSION.test(name)) return true;
  return EXTENSIONLESS.has(name.toLowerCase());
}

/**
 * A line that names a file tandem cannot take as a path (`my notes.txt` with a space, prose ending in
 * `utils.py`): the name it ends with, or undefined. A name that is a chat file is readable, so not this.
 */
export function unreadableFileName(line: string, chatFiles: readonly string[]): string | undefined {
  if (line.length > 300 || parseFenceOpen(line)) return undefined;
  const { name } = stripDecoration(line);
  // Quotes and backslashes too: `src/"odd\name.py` must not pass for "no name here" either.
  const last = (name.split(/\s+/).at(-1) ?? '').replace(/^["']+|["']+$/g, '');
  if (!EXTENSION.test(last) || !/^[^\s`*<>|]+$/u.test(last) || last.endsWith('.')) return undefined;
  if (chatFiles.includes(resolvePath(last, chatFiles))) return undefined;
  return name;
}

/** The file name a line consists of (after decoration), or undefined when the line is prose. */
export function filenameFromLine(line: string, chatFiles: readonly string[]): string | undefined {
  if (line.length > 300 || parseFenceOpen(line)) return undefined;
  const { name, quoted } = stripDecoration(line);
  return looksLikePath(name, chatFiles, quoted) ? resolvePath(name, chatFiles) : undefined;
}

/**
 * A file name named in a sentence that introduces a block ("Then in `src/app.py`:"): the line
 * must end with a colon and hold exactly one backticked path.
 */
export function filenameFromProse(line: string, chatFiles: readonly string[]): string | undefined {
  const t = line.trim();
  if (t.length > 200 || !t.endsWith(':')) return undefined;
  const spans = [...t.matchAll(/`([^`]+)`/g)]
    .map((m) => (m[1] ?? '').trim())
    .filter((s) => looksLikePath(s, chatFiles));
  return spans.length === 1 && spans[0] !== undefined ? resolvePath(spans[0], chatFiles) : undefined;
}

/** A file name in a fence's info string (```python src/app.py or ```src/app.py), if any. */
export function filenameFromInfo(info: string, chatFiles: readonly string[]): string | undefined {
  for (const word of info.split(/\s+/)) {
    const { name } = stripDecoration(word);
    if (looksLikePath(name, chatFiles)) return resolvePath(name, chatFiles);
  }
  return undefined;
}
