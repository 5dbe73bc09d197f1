// Repository files a text names but the chat does not hold yet: the user's request ("fix utils.py")
// or a reply saying which files it needs. Pure string work.

/** Words that look like paths: keep slashes, dots, dashes; strip quotes, backticks and punctuation. */
function candidateWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const raw of text.split(/[\s,;:()[\]{}<>"'`*]+/)) {
    const word = raw.replace(/^\.\//, '').replace(/[.!?]+$/, '');
    if (word.length > 0) words.add(word);
  }
  return words;
}

/**
 * Files from `repoFiles` named in `text` and not in `chatFiles`: by full path, or by a file name with
 * an extension that only one repository file has.
 */
export function mentionedFiles(text: string, repoFiles: readonly string[], chatFiles: readonly string[]): string[] {
  const words = candidateWords(text);
  const byName = new Map<string, string[]>();
  for (const file of repoFiles) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  const found = new Set<string>();
  for (const word of words) {
    if (repoFiles.includes(word)) {
      found.add(word);
      continue;
    }
    const sameName = byName.get(word);
    if (word.includes('.') && sameName?.length === 1) found.add(sameName[0]!);
  }
  return [...found].filter((file) => !chatFiles.includes(file)).sort();
}
