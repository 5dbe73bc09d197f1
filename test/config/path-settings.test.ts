import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathSettingProblem } from '../../src/config/path-settings.js';
import { repositoryConfigFiles } from '../../src/git/config-files.js';
import { git, gitRepo, tempDir } from '../support/temp-repo.js';

describe('path settings never point into state', () => {
  it('judges each path as a table (path, from the repository, verdict)', async () => {
    const root = gitRepo({ 'app.py': 'x = 1\n', 'shared.cfg': '[core]\n' });
    git(root, 'config', 'include.path', '../shared.cfg');
    git(root, 'config', 'core.hooksPath', 'tools/hooks');
    const outside = tempDir();
    mkdirSync(join(root, 'logs'));
    symlinkSync(outside, join(root, 'out'));
    symlinkSync(join(root, '.git'), join(root, 'gitdir'));
    writeFileSync(join(root, 'linked.log'), '');
    const context = { root, hooksDir: 'tools/hooks', gitConfigFiles: await repositoryConfigFiles(root, { env: { PATH: process.env['PATH'] ?? '' } }) };
    const rows: Array<[path: string, fromRepository: boolean, verdict: RegExp | null]> = [
      ['logs/llm.jsonl', true, null],
      ['llm.jsonl', true, null],
      [join(outside, 'llm.jsonl'), false, null],
      [join(outside, 'llm.jsonl'), true, /outside the repository/],
      ['out/llm.jsonl', true, /outside the repository/],
      ['.git/config', true, /\.git\//],
      ['.git/config', false, /\.git\//],
      ['.GIT/hooks/pre-commit', false, /\.git\//],
      ['gitdir/config', true, /\.git\//],
      ['.tandem/sessions/x.jsonl', false, /\.tandem\//],
      ['.husky/pre-commit', true, /\.husky\//],
      ['tools/hooks/post-commit', true, /hooks folder/],
      ['.tandem.conf.yml', true, /configuration/],
      ['sub/.env', true, /configuration/],
      ['.gitattributes', false, /configuration/],
      ['shared.cfg', true, /repository's config/],
    ];
    for (const [path, fromRepository, verdict] of rows) {
      const actual = pathSettingProblem('llm-log', path.startsWith('/') ? path : join(root, path), fromRepository, context);
      if (verdict === null) expect(actual, path).toBeNull();
      else expect(actual ?? 'allowed', path).toMatch(verdict);
    }
    symlinkSync(join(root, '.git', 'config'), join(root, 'planted.log'));
    expect(pathSettingProblem('llm-log', join(root, 'planted.log'), false, context)).toMatch(/symbolic link/);
  });
});
