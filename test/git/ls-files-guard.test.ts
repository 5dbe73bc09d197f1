// The map's own listing (listRepoFiles with this process's environment) keeps its config listing
// per repository between calls: a config changed between two listings is listed again, so a
// command it plants is still never run.
import { appendFile, chmod, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listRepoFiles } from '../../src/git/ls-files.js';
import { makeFixture, userCommit, type Fixture } from './git-fixture.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

describe('listRepoFiles without an environment of its own', () => {
  it('lists again after .git/config changed, and runs no fsmonitor it names', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n' });
    expect(await listRepoFiles(fx.root)).toEqual(['a.txt']);
    const marker = join(fx.root, '..', 'ran');
    const script = join(fx.root, '..', 'monitor.sh');
    await writeFile(script, `#!/bin/sh\ntouch "${marker}"\n`);
    await chmod(script, 0o755);
    await appendFile(join(fx.root, '.git', 'config'), `[core]\n  fsmonitor = "${script}"\n`);
    await mkdir(join(fx.root, 'src'));
    await fx.write({ 'src/b.txt': '2\n' });
    expect((await listRepoFiles(fx.root))?.sort()).toEqual(['a.txt', 'src/b.txt']);
    expect(existsSync(marker)).toBe(false);
  });
});
