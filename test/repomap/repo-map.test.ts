import { afterAll, describe, expect, it } from 'vitest';
import { get_encoding } from 'tiktoken';
import { createRepoMap, findMentions, type MapRefreshMode, type RepoMapDeps, type StoredMaps } from '../../src/repomap/repo-map.js';
import type { Tag } from '../../src/repomap/tag.js';
import { SMALL_REPO, fileReader, generatedRepo, tagsFor, writeRepo } from './map-fixture.js';

const encoder = get_encoding('o200k_base');
const countTokens = (text: string): number => encoder.encode_ordinary(text).length;
afterAll(() => encoder.free());

interface Harness {
  deps: RepoMapDeps;
  collected: () => number;
  setFiles: (files: string[]) => void;
  /** Milliseconds each clock reading advances: large makes every build look slow. */
  setTick: (ms: number) => void;
  /** The file's tags come back as a new object, as after an edit. */
  touch: (path: string) => void;
}

async function harness(files: Record<string, string>, refreshMode: MapRefreshMode = 'auto'): Promise<Harness> {
  const root = await writeRepo(files);
  const tags = tagsFor(files);
  let listed = Object.keys(files);
  let collections = 0;
  let clock = 0;
  let tick = 5;
  const deps: RepoMapDeps = {
    listFiles: async () => listed,
    collectTags: async (paths) => {
      collections++;
      return new Map(paths.flatMap((p): [string, Tag[]][] => [[p, tags.get(p) ?? []]]));
    },
    readFile: fileReader(root),
    countTokens,
    now: () => (clock += tick),
    refreshMode,
  };
  const touch = (path: string): void => void tags.set(path, [...(tags.get(path) ?? [])]);
  return { deps, collected: () => collections, setFiles: (f) => (listed = f), setTick: (ms) => (tick = ms), touch };
}

const ask = { chatFiles: ['src/app.ts'], budget: 1024 };

describe('createRepoMap', () => {
  it('returns an empty map for a zero budget without collecting tags', async () => {
    const h = await harness(SMALL_REPO);
    expect(await createRepoMap(h.deps).get({ ...ask, budget: 0 })).toBe('');
    expect(h.collected()).toBe(0);
  });

  it('leaves chat and read-only files out and gives the same bytes from separate instances', async () => {
    const h = await harness(SMALL_REPO, 'always');
    const request = { ...ask, readOnlyFiles: ['src/logging/logger.ts'] };
    const first = await createRepoMap(h.deps).get(request);
    const second = await createRepoMap(h.deps).get(request);
    expect(second).toBe(first);
    expect(first).toContain('src/geometry/total-area.ts:');
    expect(first).not.toContain('src/app.ts');
    expect(first).not.toContain('logger.ts');
  });

  it('auto: keeps the map while only chat files change, rebuilds when anything else does', async () => {
    const h = await harness(SMALL_REPO, 'auto');
    const map = createRepoMap(h.deps);
    const first = await map.get(ask);
    h.touch('src/app.ts');
    expect(await map.get(ask)).toBe(first);
    expect(map.lastStats()?.fromCache).toBe(true);
    expect(h.collected()).toBe(2);
    h.touch('src/geometry/total-area.ts');
    await map.get(ask);
    expect(map.lastStats()?.fromCache).toBe(false);
    await map.get({ ...ask, chatFiles: ['src/geometry/total-area.ts'] });
    expect(map.lastStats()?.fromCache).toBe(false);
    h.setFiles(Object.keys(SMALL_REPO).filter((f) => f !== 'README.md'));
    await map.get(ask);
    expect(map.lastStats()?.fromCache).toBe(false);
    expect(h.collected()).toBe(5);
  });

  it('auto: after a slow build, reuses the map without collecting tags while the file list stays', async () => {
    const h = await harness(SMALL_REPO, 'auto');
    const map = createRepoMap(h.deps);
    h.setTick(2000);
    await map.get(ask);
    const cached = await map.get(ask);
    expect(h.collected()).toBe(1);
    expect(map.lastStats()?.fromCache).toBe(true);
    expect(cached).toContain('totalArea');
    h.setFiles(Object.keys(SMALL_REPO).filter((f) => f !== 'README.md'));
    await map.get(ask);
    expect(h.collected()).toBe(2);
  });

  it('always rebuilds; files rebuilds only when the file list changes', async () => {
    const always = await harness(SMALL_REPO, 'always');
    const alwaysMap = createRepoMap(always.deps);
    await alwaysMap.get(ask);
    await alwaysMap.get(ask);
    expect(always.collected()).toBe(2);

    const files = await harness(SMALL_REPO, 'files');
    const filesMap = createRepoMap(files.deps);
    const before = await filesMap.get(ask);
    await filesMap.get(ask);
    expect(files.collected()).toBe(1);
    files.setFiles(Object.keys(SMALL_REPO).filter((f) => !f.includes('billing')));
    const after = await filesMap.get(ask);
    expect(files.collected()).toBe(2);
    expect(before).toContain('invoice.ts');
    expect(after).not.toContain('invoice.ts');
  });

  it('manual: keeps the last map until a refresh is asked for', async () => {
    const h = await harness(SMALL_REPO, 'manual');
    const map = createRepoMap(h.deps);
    const first = await map.get(ask);
    h.setFiles(['src/app.ts']);
    expect(await map.get({ ...ask, readOnlyFiles: ['src/logging/logger.ts'] })).toBe(first);
    expect(h.collected()).toBe(1);
    expect(await map.get({ ...ask, refresh: true })).toBe('');
    expect(h.collected()).toBe(2);
  });

  it('grows the budget when no file is in the chat, never above the cap', async () => {
    const h = await harness(generatedRepo(60), 'always');
    const map = createRepoMap({ ...h.deps, budgetGrowth: { noChatMultiplier: 4, maxBudget: 1500 } });
    const withChat = await map.get({ chatFiles: ['pkg/main.ts'], budget: 512 });
    expect(countTokens(withChat)).toBeLessThanOrEqual(512);
    const noChat = await map.get({ chatFiles: [], budget: 512 });
    const tokens = countTokens(noChat);
    expect(tokens).toBeGreaterThan(512);
    expect(tokens).toBeLessThanOrEqual(1500);
    expect(map.lastStats()).toMatchObject({ budget: 1500, tokens });
  });
});

describe('a new chat set or budget in the same process', () => {
  it('counts and reads only blocks and files it has not met, for the same text as a fresh map', async () => {
    const h = await harness(generatedRepo(60), 'always');
    let counted = 0;
    const reads = new Map<string, number>();
    let tokenizer = 'o200k_base';
    const counting = (named: boolean): RepoMapDeps => ({
      ...h.deps,
      countTokens: (text) => (counted++, countTokens(text)),
      readFile: (path) => (reads.set(path, (reads.get(path) ?? 0) + 1), h.deps.readFile(path)),
      ...(named ? { tokenizer: () => tokenizer } : {}),
    });
    const requests = [{ chatFiles: ['pkg/main.ts'], budget: 512 }, { chatFiles: ['pkg/main.ts', 'pkg/module_007.ts'], budget: 512 }, { chatFiles: ['pkg/main.ts'], budget: 300 }];
    const fresh: string[] = [];
    const freshCounts: number[] = [];
    for (const request of requests) {
      counted = 0;
      fresh.push(await createRepoMap(counting(false)).get(request));
      freshCounts.push(counted);
    }
    const map = createRepoMap(counting(true));
    await map.get(requests[0] ?? ask);
    reads.clear();
    for (const [i, request] of requests.slice(1).entries()) {
      counted = 0;
      expect(await map.get(request)).toBe(fresh[i + 1]);
      expect(counted).toBeLessThan(freshCounts[i + 1] ?? 0);
    }
    // Files rendered before kept their tags objects: none was read again.
    expect([...reads.keys()].filter((path) => (reads.get(path) ?? 0) > 1)).toEqual([]);
    // Counts kept for one tokenizer are not used for another.
    tokenizer = 'cl100k_base';
    counted = 0;
    expect(await map.get(requests[1] ?? ask)).toBe(fresh[1]);
    expect(counted).toBe(freshCounts[1]);
  });
});

describe('a new chat set ranked while the listing runs', () => {
  /** Maps kept on disk, none found; the fingerprint (the listing) settles a while after it is asked for, after `during` ran. */
  const slowListing = (during: () => void = () => {}, fail = false): StoredMaps & { asked: () => number } => {
    let asked = 0;
    return {
      asked: () => asked,
      fingerprint: () => {
        asked++;
        return new Promise((resolve, reject) => setTimeout(() => {
          during();
          if (fail) reject(new Error('git ls-files failed: not a git repository'));
          else resolve('listing');
        }, 5));
      },
      get: async () => undefined,
      set: () => {},
    };
  };
  const requests = [{ chatFiles: ['pkg/main.ts'], budget: 512 }, { chatFiles: ['pkg/main.ts', 'pkg/module_007.ts'], budget: 512 }];

  it('finds the ranking done when the files did not change, with the very text of a fresh map', async () => {
    const h = await harness(generatedRepo(60), 'always');
    const fresh = await createRepoMap(h.deps).get(requests[1] ?? ask);
    const map = createRepoMap({ ...h.deps, stored: slowListing() });
    await map.get(requests[0] ?? ask);
    expect(map.lastStats()?.ranking?.ranked).toBe(true);
    expect(await map.get(requests[1] ?? ask)).toBe(fresh);
    // The power iteration ran before the build asked for it: the build took that ranking.
    expect(map.lastStats()?.ranking?.ranked).toBe(false);
  });

  it('ranks again when a file changed while the listing ran, for the text of a fresh map of the new files', async () => {
    const h = await harness(generatedRepo(60), 'always');
    const map = createRepoMap({ ...h.deps, stored: slowListing(() => h.touch('pkg/module_020.ts')) });
    await map.get(requests[0] ?? ask);
    const after = await map.get(requests[1] ?? ask);
    expect(map.lastStats()?.ranking?.ranked).toBe(true);
    expect(after).toBe(await createRepoMap(h.deps).get(requests[1] ?? ask));
  });

  it('a listing that fails meanwhile fails the map with its own error', async () => {
    const h = await harness(generatedRepo(60), 'always');
    let failing = false;
    const listing = slowListing();
    const map = createRepoMap({ ...h.deps, stored: { ...listing, fingerprint: () => (failing ? slowListing(() => {}, true).fingerprint() : listing.fingerprint()) } });
    await map.get(requests[0] ?? ask);
    failing = true;
    await expect(map.get(requests[1] ?? ask)).rejects.toThrow('git ls-files failed: not a git repository');
  });
});

describe('a parser thread started before the tags are collected', () => {
  /** Maps kept in memory; the listing's state is `state`, and a key's fingerprint is its first item. */
  function keptMaps(h: Harness) {
    let state = 'v1';
    const kept = new Map<string, unknown>();
    const split = (key: string): [string, string] => {
      const [fingerprint, ...request] = JSON.parse(key) as unknown[];
      return [String(fingerprint), JSON.stringify(request)];
    };
    const stored: StoredMaps = {
      fingerprint: async () => state,
      get: async (key) => kept.get(key) as never,
      set: (key, map) => void kept.set(key, map),
      keptBeforeEdit: async (key) => {
        const [files, request] = split(key);
        return [...kept.keys()].some((other) => split(other)[1] === request && split(other)[0] !== files);
      },
    };
    let expected = 0;
    const map = createRepoMap({ ...h.deps, stored, expectParse: () => void expected++ });
    return { map, expectations: () => expected, changeFiles: (next: string) => void (state = next) };
  }

  it('is asked for when this very request was answered before some file was edited', async () => {
    const h = await harness(SMALL_REPO, 'always');
    const { map, expectations, changeFiles } = keptMaps(h);
    await map.get(ask);
    expect(expectations()).toBe(0); // nothing kept: a first run may find every file in a cache
    await map.get({ ...ask, chatFiles: ['src/geometry/total-area.ts'] });
    await map.get({ ...ask, budget: 2048 });
    expect(expectations()).toBe(0); // a new chat set or budget over the same files parses nothing
    changeFiles('v2');
    await map.get(ask);
    expect(expectations()).toBe(1); // a file edited since this request's map
    await map.get(ask);
    expect(expectations()).toBe(1); // shown from the store: nothing collected
    await map.get({ ...ask, refresh: true });
    expect(expectations()).toBe(1); // a refresh looks at no stored map
    expect(h.collected()).toBe(5);
  });
});

describe('a map small enough to need no tokenizer', () => {
  it('is returned whole without counting tokens when its bytes fit the budget', async () => {
    const h = await harness(SMALL_REPO, 'always');
    const exact = await createRepoMap(h.deps).get({ ...ask, budget: 8192 });
    let counted = 0;
    const lazy = createRepoMap({ ...h.deps, countTokens: (text) => (counted++, countTokens(text)) });
    expect(await lazy.get({ ...ask, budget: 8192 })).toBe(exact);
    expect(counted).toBe(0);
    expect(Buffer.byteLength(exact)).toBeLessThanOrEqual(8192);
  });
});

describe('findMentions', () => {
  const files = ['src/app.ts', 'src/geometry/total-area.ts', 'src/map.ts', 'lib/map.ts', 'README.md'];

  it('finds full paths, file names that look like file names, and identifiers', () => {
    const found = findMentions('In `total-area.ts` make totalArea skip nulls, see src/app.ts. Also the map and README.md.', files);
    expect(found.files).toEqual(['README.md', 'src/app.ts', 'src/geometry/total-area.ts']);
    expect(found.idents).toContain('totalArea');
    expect(found.idents).not.toContain('nulls');
    expect(found.idents).not.toContain('In');
  });

  it('boosts only words that look like identifiers or name a file', () => {
    const repo = ['flask/app.py', 'flask/blueprints.py', 'examples/tutorial/flaskr/db.py'];
    const found = findMentions('add a module docstring to the app, use get_db and sendFile, see HTTPServer and blueprints; API', repo);
    expect(found.idents.sort()).toEqual(['HTTPServer', 'app', 'blueprints', 'docstring', 'get_db', 'sendFile']);
    expect(findMentions('add the map and fix it', repo).idents).toEqual([]);
  });

  // The one mentions rule (mentioned-files.ts, Aider's): a base name two folders share names neither.
  it('a bare name two folders share names neither file; the full path names one', () => {
    expect(findMentions('why is map.ts slow?', files).files).toEqual([]);
    expect(findMentions('why is src/map.ts slow?', files).files).toEqual(['src/map.ts']);
  });
});
