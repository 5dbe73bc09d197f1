import { describe, expect, it } from 'vitest';
import { mentionedFiles } from '../../src/repomap/mentioned-files.js';

const repo = ['src/utils.py', 'src/app.py', 'tests/app.py', 'README.md', 'Makefile'];

describe('file mentions', () => {
  it('finds full paths and unique file names, but not files already in the chat', () => {
    expect(mentionedFiles('Please fix `src/utils.py` and README.md.', repo, [])).toEqual(['README.md', 'src/utils.py']);
    expect(mentionedFiles('update utils.py', repo, ['src/utils.py'])).toEqual([]);
  });

  it('ignores ambiguous names and words without an extension', () => {
    expect(mentionedFiles('look at app.py and the makefile', repo, [])).toEqual([]);
    expect(mentionedFiles('see tests/app.py', repo, [])).toEqual(['tests/app.py']);
  });

  it('names a path only as a whole word, and a file-like base name only when no chat file has it', () => {
    const files = ['src/run_tests', 'src/app.py', 'lib/app.py', 'docs/a.md'];
    expect(mentionedFiles('run run_tests and see ./docs/a.md!', files)).toEqual(['docs/a.md', 'src/run_tests']);
    expect(mentionedFiles('see xdocs/a.md or docs/a.mdx', files)).toEqual([]);
    expect(mentionedFiles('fix app.py', files, ['src/app.py'])).toEqual([]);
  });
});
