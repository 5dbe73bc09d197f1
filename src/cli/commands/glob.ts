// Shell-style globs for /add, matched against the repository's file list: `*` and `?` stay inside one
// folder, `**` crosses folders, `[abc]` is a class.

export function isGlob(word: string): boolean {
  return /[*?[]/.test(word);
}

export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] ?? '';
    if (ch === '*' && glob[i + 1] === '*') {
      // `**/` matches zero or more folders; a trailing `**` everything below.
      const slash = glob[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (ch === '*') {
      source += '[^/]*';
    } else if (ch === '?') {
      source += '[^/]';
    } else if (ch === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        source += '\\[';
        continue;
      }
      const body = glob.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
      source += `[${body}]`;
      i = close;
    } else {
      source += ch.replace(/[.+^${}()|\\\]]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

/** The files (repository-relative) a glob typed relative to the repository matches, sorted. */
export function matchGlob(glob: string, files: readonly string[]): string[] {
  const pattern = globToRegExp(glob);
  return files.filter((file) => pattern.test(file)).sort();
}
