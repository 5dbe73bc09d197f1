// The one "mentioned files" rule, for the files a request or a reply names ("fix utils.py") and for
// the repository map: as in Aider, a file is mentioned when its repo-relative path, or its base name
// when no other candidate file has it, stands as a word of the text. Pure string work.
import { normalizePath } from '../platform/repo-path.js';

/** Words that look like paths: keep slashes, dots, dashes; strip quotes, backticks and punctuation. */
function candidateWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const raw of text.split(/[\s,;:()[\]{}<>"'`*]+/)) {
    const word = normalizePath(raw).replace(/[.!?]+$/, '');
    if (word.length > 0) words.add(word);
  }
  return words;
}

/** A base name that cannot be an ordinary word ("map", "Makefile"): it has a dot, dash or underscore. */
function looksLikeFileName(base: string): boolean {
  return /[._-]/.test(base);
}

const baseName = (file: string): string => file.slice(file.lastIndexOf('/') + 1);

/**
 * Files from `repoFiles` named in `text` and not in `chatFiles`, sorted: by full path, or by a base
 * name that looks like a file name, that only one of those files has, and that no chat file has.
 */
export function mentionedFiles(text: string, repoFiles: readonly string[], chatFiles: readonly string[] = []): string[] {
  const words = candidateWords(text);
  const inChat = new Set(chatFiles);
  const chatNames = new Set(chatFiles.map(baseName));
  const byName = new Map<string, string[]>();
  const found = new Set<string>();
  for (const file of repoFiles) {
    if (inChat.has(file)) continue;
    if (words.has(file)) found.add(file);
    const name = baseName(file);
    if (looksLikeFileName(name) && !chatNames.has(name)) byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  for (const [name, files] of byName) if (files.length === 1 && words.has(name)) found.add(files[0]!);
  return [...found].sort();
}
