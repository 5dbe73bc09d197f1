// git's index read by tandem itself lists what `ls-files -s -v` lists, entry for entry, or declines
// (null) and leaves the answer to git: never a partial or wrong listing, whatever the file holds.
import { readFileSync, symlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseIndexFile, readIndexFile } from '../../src/git/index-file.js';
import { parseIndexListing } from '../../src/git/ls-files.js';
import { makeFixture, userCommit, type Fixture } from './git-fixture.js';

let fx: Fixture | undefined;
let sub: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  await sub?.cleanup();
  fx = sub = undefined;
});

async function lsFiles(f: Fixture): Promise<ReturnType<typeof parseIndexListing>> {
  return parseIndexListing(await f.git('ls-files', '-s', '-v', '-z'));
}

function indexBytes(f: Fixture): Buffer {
  return readFileSync(join(f.root, '.git', 'index'));
}

/** A repository whose index holds every kind of entry: modes, flags, a submodule, a conflict's stages, odd names. */
async function everyKindOfEntry(): Promise<Fixture> {
  const f = await makeFixture();
  sub = await makeFixture();
  await userCommit(sub, { 'inner.txt': 'inner\n' });
  await userCommit(f, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'é ü/ name with spaces.py': 'x\n', 'run.sh': 'echo\n', 'f.txt': 'base\n' });
  // a name longer than the 12 bits of length the flags hold (only the index can hold one: the disk cannot)
  const blob = (await f.git('hash-object', '-w', 'a.txt')).trim();
  await f.git('update-index', '--add', '--cacheinfo', `100644,${blob},${`${'d'.repeat(200)}/`.repeat(22)}leaf.txt`);
  await f.git('-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', sub.root, 'vendor/lib');
  await f.git('-c', 'user.name=A', '-c', 'user.email=a@b', 'commit', '--quiet', '-m', 'submodule');
  // a conflict: stages 1 to 3 of f.txt
  const main = (await f.git('rev-parse', '--abbrev-ref', 'HEAD')).trim();
  await f.git('checkout', '-q', '-b', 'side');
  await userCommit(f, { 'f.txt': 'side\n' });
  await f.git('checkout', '-q', main);
  await userCommit(f, { 'f.txt': 'main\n' });
  await f.git('merge', 'side').catch(() => undefined);
  // then the flags, a link, a staged file and one added with --intent-to-add
  await f.git('update-index', '--chmod=+x', 'run.sh');
  await f.git('update-index', '--skip-worktree', 'a.txt');
  await f.git('update-index', '--assume-unchanged', 'b.txt');
  symlinkSync('c.txt', join(f.root, 'link'));
  await f.write({ 'added later.txt': 'n\n', 'new-intent.txt': 'i\n' });
  await f.git('add', 'link', 'added later.txt');
  await f.git('add', '--intent-to-add', '--', 'new-intent.txt');
  return f;
}

describe('the index read without git', () => {
  it('lists every entry as ls-files -s -v does: tags, modes, ids, stages and names', async () => {
    fx = await everyKindOfEntry();
    const listed = await lsFiles(fx);
    expect(listed.map((e) => e.tag)).toEqual(expect.arrayContaining(['S', 'h', 'M', 'H']));
    expect(listed.map((e) => e.mode)).toEqual(expect.arrayContaining(['160000', '120000', '100755', '100644']));
    expect(parseIndexFile(indexBytes(fx))).toEqual(listed);
  });

  it('reads versions 2, 3 and 4 alike', async () => {
    fx = await everyKindOfEntry();
    const listed = await lsFiles(fx);
    for (const version of ['2', '3', '4']) {
      await fx.git('update-index', '--index-version', version);
      // skip-worktree needs version 3's extended flags: git keeps 3 when asked for 2
      expect(indexBytes(fx).readUInt32BE(4)).toBe(version === '2' ? 3 : Number(version));
      expect(parseIndexFile(indexBytes(fx)), `version ${version}`).toEqual(listed);
    }
  });

  it('reads a SHA-256 repository', async () => {
    fx = await makeFixture();
    await rm(join(fx.root, '.git'), { recursive: true, force: true });
    await fx.git('init', '--quiet', '--object-format=sha256');
    await userCommit(fx, { 'a.txt': 'a\n', 'b/c.txt': 'c\n' });
    const listed = await lsFiles(fx);
    expect(listed[0]?.object).toMatch(/^[0-9a-f]{64}$/);
    expect(parseIndexFile(indexBytes(fx))).toEqual(listed);
  });

  it('declines a split index, a sparse index, a torn file and a foreign one', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': 'a\n', 'dir/b.txt': 'b\n', 'dir/c.txt': 'c\n' });
    const good = indexBytes(fx);
    expect(parseIndexFile(good)).not.toBeNull();
    // every prefix and a flipped byte anywhere: null, never a throw
    for (let cut = 0; cut < good.length; cut += 7) expect(parseIndexFile(good.subarray(0, cut))).toBeNull();
    for (let at = 0; at < good.length; at += 5) {
      const flipped = Buffer.from(good);
      flipped[at] = flipped[at]! ^ 0x40;
      expect(parseIndexFile(flipped)).toBeNull();
    }
    expect(parseIndexFile(Buffer.alloc(4096))).toBeNull();
    // a broken body under a hash made to match: still no throw, and no entry past the bytes
    for (let at = 8; at < good.length - 20; at += 3) {
      const forged = Buffer.from(good);
      forged[at] = forged[at]! ^ 0xff;
      createHash('sha1').update(forged.subarray(0, forged.length - 20)).digest().copy(forged, forged.length - 20);
      expect(() => parseIndexFile(forged)).not.toThrow();
    }

    await fx.git('update-index', '--split-index');
    expect(parseIndexFile(indexBytes(fx))).toBeNull();
    await fx.git('update-index', '--no-split-index');
    expect(parseIndexFile(indexBytes(fx))).toEqual(await lsFiles(fx));

    await fx.git('sparse-checkout', 'init', '--cone', '--sparse-index');
    await fx.git('sparse-checkout', 'set', 'nothing');
    expect(await lsFiles(fx)).toHaveLength(3);
    expect(parseIndexFile(indexBytes(fx))).toBeNull();
  });

  it('reads only a regular file: a link to /dev/zero or a missing index is left to git', async () => {
    fx = await makeFixture();
    expect(readIndexFile(join(fx.root, '.git', 'index'))).toBeNull();
    await userCommit(fx, { 'a.txt': 'a\n' });
    expect(readIndexFile(join(fx.root, '.git', 'index'))).toEqual(await lsFiles(fx));
    symlinkSync('/dev/zero', join(fx.root, 'zero-index'));
    expect(readIndexFile(join(fx.root, 'zero-index'))).toBeNull();
  });
});
