// One listing of the repository per request: two git calls answer every question a request asks before it
// commits, and a file changed since the status ran is asked about again.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changedSinceBy } from '../../src/platform/change-times.js';
import { dirtyFiles } from '../../src/git/dirty.js';
import { RequestListing } from '../../src/git/repo-listing.js';
import { untrackablePaths } from '../../src/git/state.js';
import { parseStatusV2 } from '../../src/git/status.js';
import { listRepoFiles } from '../../src/git/ls-files.js';
import { makeFixture, userCommit, type Fixture } from './git-fixture.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

/** Counts the listing's git calls by the two it makes per listing (ls-files and status share one listing). */
function counting(listing: RequestListing): { listings: () => number } {
  let listings = 0;
  const take = (listing as unknown as { take: () => Promise<unknown> }).take.bind(listing);
  (listing as unknown as { take: () => Promise<unknown> }).take = () => {
    listings++;
    return take();
  };
  return { listings: () => listings };
}

describe('the request listing', () => {
  it('answers files, tracked state files, HEAD, dirty files and untrackable files as the single-purpose calls do, from one listing', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.py': 'a\n', 'b py.py': 'b\n', '.tandem/tags.cache': 'x', 'skip.txt': 's\n', '.gitignore': '*.log\n' });
    // tracked although ignored: listed like any tracked file
    await fx.write({ 'kept.log': 'k\n' });
    await fx.git('add', '-f', 'kept.log');
    await fx.git('update-index', '--skip-worktree', 'skip.txt');
    await fx.write({ 'a.py': 'a changed\n', 'new dir/c.py': 'c\n', 'other.log': 'o\n' });
    await fx.git('add', 'a.py');
    await fx.write({ 'b py.py': 'b changed\n' });
    const options = { env: fx.env };
    const listing = new RequestListing(fx.root, { ...options, changedSince: () => false });
    const count = counting(listing);

    expect([...(await listing.files())!].sort()).toEqual([...(await listRepoFiles(fx.root, fx.env))!].sort());
    expect(await listing.trackedUnder('.tandem')).toEqual(new Set(['.tandem/tags.cache']));
    expect(await listing.head()).toBe((await fx.git('rev-parse', 'HEAD')).trim());
    const asked = ['a.py', 'b py.py', 'new dir/c.py', 'skip.txt', 'gone.py'];
    expect(await listing.dirtyFiles(asked)).toEqual(await dirtyFiles(fx.root, asked, options));
    expect(await listing.dirtyFiles(asked)).toEqual(['a.py', 'b py.py']);
    expect(await listing.untrackable(asked)).toEqual(await untrackablePaths(fx.root, asked, options));
    expect(count.listings()).toBe(1);

    // The next request lists again; a one-shot run's first request keeps start-up's listing.
    listing.beginRequest();
    await listing.files();
    expect(count.listings()).toBe(2);
    const oneShot = new RequestListing(fx.root, { ...options, firstRequestAtOnce: true });
    const oneShotCount = counting(oneShot);
    await oneShot.trackedUnder('.tandem');
    oneShot.beginRequest();
    await oneShot.files();
    oneShot.beginRequest();
    await oneShot.files();
    expect(oneShotCount.listings()).toBe(2);
  });

  it('asks git again about a file changed after the status ran', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.py': 'a\n' });
    let changed = false;
    const listing = new RequestListing(fx.root, { env: fx.env, changedSince: () => changed });
    expect(await listing.dirtyFiles(['a.py'])).toEqual([]);
    writeFileSync(join(fx.root, 'a.py'), 'a, edited while the model answered\n');
    changed = true;
    expect(await listing.dirtyFiles(['a.py'])).toEqual(['a.py']);
  });

  it('has no HEAD before the first commit, and lists the files all the same', async () => {
    fx = await makeFixture();
    await fx.write({ 'a.py': 'a\n' });
    const listing = new RequestListing(fx.root, { env: fx.env });
    expect(await listing.head()).toBeNull();
    expect(await listing.files()).toEqual(['a.py']);
  });

  it('is null (files) and empty (tracked) outside a repository, as the calls it replaces were', async () => {
    fx = await makeFixture();
    const outside = join(fx.root, '..', 'home');
    const listing = new RequestListing(outside, { env: fx.env });
    expect(await listing.files()).toBeNull();
    expect(await listing.trackedUnder('.tandem')).toEqual(new Set());
  });
});

describe('porcelain v2 status', () => {
  it('reads ordinary, renamed, unmerged and untracked records, paths with spaces, and HEAD', () => {
    const oid = 'a'.repeat(40);
    const out = [
      `# branch.oid ${oid}`, '# branch.head main',
      '1 .M N... 100644 100644 100644 h1 h1 src/a b.py',
      '2 R. N... 100644 100644 100644 h1 h2 R100 new.py', 'old.py',
      'u UU N... 100644 100644 100644 100644 h1 h2 h3 conflict.py',
      '? new dir/c.py', '',
    ].join('\0');
    expect(parseStatusV2(out)).toEqual({
      head: oid,
      entries: [
        { index: ' ', worktree: 'M', path: 'src/a b.py' },
        { index: 'R', worktree: ' ', path: 'new.py' },
        { index: 'U', worktree: 'U', path: 'conflict.py' },
        { index: '?', worktree: '?', path: 'new dir/c.py' },
      ],
    });
    expect(parseStatusV2('# branch.oid (initial)\0# branch.head main\0').head).toBeNull();
  });
});

describe('change times', () => {
  const at = (ctimeMs: number) => changedSinceBy(() => ({ ctimeMs, mtimeMs: 0 }));
  it('trusts a fine-grained stamp clearly before the listing, and not one near or after it', () => {
    expect(at(10_000.5)('f', 10_100)).toBe(false);
    expect(at(10_090.5)('f', 10_100)).toBe(true);
    expect(at(10_200.5)('f', 10_100)).toBe(true);
  });
  it('allows two seconds for a file system that keeps whole seconds, and treats a missing file as changed', () => {
    expect(at(9_000)('f', 10_100)).toBe(true);
    expect(at(8_000)('f', 10_100)).toBe(false);
    expect(changedSinceBy(() => undefined)('f', 0)).toBe(true);
  });
});
