// The one path normaliser: repository paths relative to the root with forward slashes.
import { describe, expect, it } from 'vitest';
import { normalizePath, posixRelative, repoRelativePath } from '../../src/platform/repo-path.js';

describe('repo paths', () => {
  it('a path inside the root, absolute or relative to a folder, becomes repo-relative; the root and outside are null', () => {
    expect(repoRelativePath('/r', '/r/src/a.py')).toBe('src/a.py');
    expect(repoRelativePath('/r', 'a.py', '/r/src')).toBe('src/a.py');
    expect(repoRelativePath('/r', '../b/c.py', '/r/src')).toBe('b/c.py');
    expect(repoRelativePath('/r', '/r')).toBeNull();
    expect(repoRelativePath('/r', '../x')).toBeNull();
    expect(repoRelativePath('/r', '/rr/x')).toBeNull();
    expect(posixRelative('/r', '/r')).toBe('');
    expect(posixRelative('/r', '/r/a/b')).toBe('a/b');
  });

  it('a path as written: trimmed, backslashes as slashes, no doubled slashes or leading ./', () => {
    expect(normalizePath('  ././src\\\\lib//a.py ')).toBe('src/lib/a.py');
    expect(normalizePath('/abs/./x')).toBe('/abs/./x');
  });
});
