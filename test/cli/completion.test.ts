import { describe, expect, it } from 'vitest';
import { completeLine, completePath, createRepositoryCompleter, relativeTo, type CompletionSources } from '../../src/cli/completion.js';
import { allCommands } from '../../src/cli/commands/registry.js';
import { git, gitRepo, writeFiles } from '../support/temp-repo.js';

const FILES = ['README.md', 'src/app.ts', 'src/util/strings.ts', 'src/util/numbers.ts', 'test/app.test.ts'];

const sources: CompletionSources = {
  commands: ['add', 'architect', 'ask', 'drop', 'help', 'read-only', 'model'],
  pathCommands: new Set(['add', 'drop', 'read-only']),
  files: () => FILES,
  identifiers: async () => ['parseConfig', 'parseArgs', 'renderMap', 'parseArgs'],
};

describe('completeLine', () => {
  it('completes slash command names', async () => {
    expect(await completeLine('/ad', sources)).toEqual([['/add '], '/ad']);
    expect(await completeLine('/a', sources)).toEqual([['/add', '/architect', '/ask'], '/a']);
    expect(await completeLine('/zz', sources)).toEqual([[], '/zz']);
  });

  it('completes paths after the commands that take files, one folder at a time', async () => {
    expect(await completeLine('/add READ', sources)).toEqual([['README.md '], 'READ']);
    expect(await completeLine('/add s', sources)).toEqual([['src/'], 's']);
    expect(await completeLine('/add src/', sources)).toEqual([['src/app.ts', 'src/util/'], 'src/']);
    expect(await completeLine('/drop README.md src/util/s', sources)).toEqual([['src/util/strings.ts '], 'src/util/s']);
    expect(await completeLine('/read-only test/', sources)).toEqual([['test/app.test.ts '], 'test/']);
    expect(await completeLine('/rea src/a', sources)).toEqual([['src/app.ts '], 'src/a']);
  });

  it('completes command names after /help', async () => {
    expect(await completeLine('/help a', sources)).toEqual([['add', 'architect', 'ask'], 'a']);
  });

  it('completes identifiers from the repository map in requests and other commands', async () => {
    expect(await completeLine('please fix parseA', sources)).toEqual([['parseArgs'], 'parseA']);
    expect(await completeLine('/ask why does pars', sources)).toEqual([['parseArgs', 'parseConfig'], 'pars']);
    expect(await completeLine('fix p', sources)).toEqual([[], 'p']);
  });

  it('offers nothing rather than failing when a source fails', async () => {
    const broken = createRepositoryCompleter({ root: '/nonexistent', cwd: '/nonexistent', env: {}, commands: allCommands(), listFiles: () => Promise.reject(new Error('boom')) });
    const result = await new Promise<[string[], string]>((resolve) => broken('/add x', (_e, r) => resolve(r)));
    expect(result).toEqual([[], '/add x']);
  });
});

describe('/drop', () => {
  it('completes only the files in the chat, not every path on disk', async () => {
    const complete = createRepositoryCompleter({
      root: '/r',
      cwd: '/r',
      env: {},
      commands: allCommands(),
      listFiles: async () => FILES,
      chatFiles: () => ['src/app.ts'],
    });
    const ask = (line: string) => new Promise<[string[], string]>((resolve) => complete(line, (_e, r) => resolve(r)));
    expect(await ask('/drop s')).toEqual([['src/'], 's']);
    expect(await ask('/drop src/')).toEqual([['src/app.ts '], 'src/']);
    expect(await ask('/drop t')).toEqual([[], 't']);
    expect(await ask('/add t')).toEqual([['test/'], 't']);
  });
});

describe('paths', () => {
  it('cuts candidates after the next folder', () => {
    expect(completePath('', FILES)).toEqual(['README.md', 'src/', 'test/']);
  });

  it('shows repository paths relative to the folder tandem started in', () => {
    expect(relativeTo('/r', '/r', FILES)).toEqual(FILES);
    expect(relativeTo('/r', '/r/src', FILES)).toEqual(['app.ts', 'util/strings.ts', 'util/numbers.ts']);
  });

  it('lists tracked and new unignored files with git', async () => {
    const root = gitRepo({ 'lib/alpha.py': 'x = 1\n', '.gitignore': 'build/\n' });
    writeFiles(root, { 'lib/beta.py': 'y = 2\n', 'build/out.py': 'z = 3\n' });
    git(root, 'status');
    const complete = createRepositoryCompleter({ root, cwd: root, env: { PATH: process.env['PATH'] }, commands: allCommands() });
    const result = await new Promise<[string[], string]>((resolve) => complete('/add lib/', (_e, r) => resolve(r)));
    expect(result).toEqual([['lib/alpha.py', 'lib/beta.py'], 'lib/']);
    const none = await new Promise<[string[], string]>((resolve) => complete('/add build/', (_e, r) => resolve(r)));
    expect(none[0]).toEqual([]);
  });
});
