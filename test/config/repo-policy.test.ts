// The path settings' trust rules (config/repo-policy.ts): the llm-log and --read files a repository may name.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedReadFiles, llmLogProblem, type PathTrustInput } from '../../src/config/repo-policy.js';
import type { SettingKey } from '../../src/config/schema.js';
import { writesInside } from '../../src/cli/state-dir.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

function trust(root: string, settings: PathTrustInput['settings'], from: 'repo' | 'flag'): PathTrustInput {
  const sources = new Map<SettingKey, 'repo' | 'flag'>([['llm-log', from], ['read', from]]);
  return { settings, sources, cwd: root, paths: { root, hooksDir: null, gitConfigFiles: [] }, writesInside: (file) => writesInside(root, file) };
}

describe('the llm-log a setting names', () => {
  it('is written inside the repository, never into state or through a linked folder; outside only when the user named it', () => {
    const root = gitRepo({ 'app.py': 'x = 1\n' });
    const outside = tempDir();
    symlinkSync(outside, join(root, 'out'));
    expect(llmLogProblem(trust(root, { 'llm-log': 'llm.jsonl', read: [] }, 'repo'))).toBeNull();
    expect(llmLogProblem(trust(root, { 'llm-log': null, read: [] }, 'repo'))).toBeNull();
    expect(llmLogProblem(trust(root, { 'llm-log': join(outside, 'llm.jsonl'), read: [] }, 'flag'))).toBeNull();
    expect(llmLogProblem(trust(root, { 'llm-log': join(outside, 'llm.jsonl'), read: [] }, 'repo'))).toMatch(/outside the repository/);
    expect(llmLogProblem(trust(root, { 'llm-log': 'out/llm.jsonl', read: [] }, 'flag'))).toMatch(/leads outside the repository through a link/);
    expect(llmLogProblem(trust(root, { 'llm-log': '.git/config', read: [] }, 'flag'))).toMatch(/\.git\//);
  });
});

describe('the --read files a setting names', () => {
  it("keeps the user's own wherever they are and drops a repository's that lead to state, config or outside", () => {
    const root = gitRepo({ 'docs/notes.md': 'notes\n' });
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
    mkdirSync(join(root, 'links'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'links', 'secret.txt'));
    const named = ['docs/notes.md', 'links/secret.txt', '.git/config', 'missing.md'];
    expect(allowedReadFiles(trust(root, { 'llm-log': null, read: named }, 'flag'))).toEqual({ files: named, warnings: [] });
    const judged = allowedReadFiles(trust(root, { 'llm-log': null, read: named }, 'repo'));
    expect(judged.files).toEqual(['docs/notes.md', 'missing.md']);
    expect(judged.warnings).toHaveLength(2);
    expect(judged.warnings.join('\n')).toMatch(/\.git\/.*named by the repository's config/);
    expect(judged.warnings.join('\n')).toMatch(/read: .*links\/secret\.txt.*named by the repository's config/);
  });
});
