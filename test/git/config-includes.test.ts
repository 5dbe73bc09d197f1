import { symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFilesInRepository, repositoryConfigFiles } from '../../src/git/config-files.js';

const gitConfigIncludes = async (root: string, options: { env: Record<string, string> }): Promise<string[]> =>
  configFilesInRepository(root, await repositoryConfigFiles(root, options));
import { makeFixture, type Fixture } from './git-fixture.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

describe('files the repository git config includes', () => {
  it('lists include.path, nested includes, includeIf whatever its condition, and a link and its target', async () => {
    fx = await makeFixture();
    await fx.write({ 'cfg/a.cfg': '[include]\n\tpath = ../nested.cfg\n', 'nested.cfg': '[core]\n\tabbrev = 9\n', 'real.cfg': '' });
    symlinkSync(join(fx.root, 'real.cfg'), join(fx.root, 'link.cfg'));
    await fx.git('config', 'include.path', '../cfg/a.cfg');
    await fx.git('config', '--add', 'include.path', '../link.cfg');
    await fx.git('config', 'includeIf.onbranch:never.path', '../later.cfg');
    await fx.git('config', 'includeIf.gitdir:/nowhere/.path', '/etc/outside.cfg');
    await fx.git('config', '--add', 'include.path', `~/${relative(fx.env['HOME'] ?? '', join(fx.root, 'home-named.cfg'))}`);

    const found = await gitConfigIncludes(fx.root, { env: fx.env });

    expect([...found].sort()).toEqual(['cfg/a.cfg', 'home-named.cfg', 'later.cfg', 'link.cfg', 'nested.cfg', 'real.cfg']);
  });

  it('is empty when the config includes nothing', async () => {
    fx = await makeFixture();
    expect(await gitConfigIncludes(fx.root, { env: fx.env })).toEqual([]);
  });
});
