// Rendered maps kept on disk: what a later process may show without building, and when it must not.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createRepoMapPort } from '../../src/cli/repo-map-adapter.js';
import { loadMapStore, MAP_STORE_ENTRIES, mapStorePath, type StoredMap } from '../../src/repomap/map-store.js';
import { tagCachePath } from '../../src/repomap/tag-cache.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tokens = { count: (text: string) => Math.ceil(text.length / 4) };
const facts = { tokens: 10, files: 2, tags: 5, definitions: 3, budget: 1024 };

function port(root: string, tokenizer = 'gpt-4o') {
  return createRepoMapPort({ root, packageRoot, tokens, refreshMode: 'always', emit: () => {}, tokenizer: () => tokenizer });
}

const request = (chatFiles: string[] = [], requestText = '') => ({ chatFiles, readOnlyFiles: [], requestText, budget: 512 });

function repoFiles(): Record<string, string> {
  return {
    'app/orders.py': 'def place_order(cart):\n    return charge_card(cart.total)\n',
    'app/billing.py': 'def charge_card(amount):\n    return amount\n\n\nclass InvoiceBuilder:\n    def build(self):\n        return charge_card(1)\n',
  };
}

describe('map store file', () => {
  it('keeps what was saved for the next load', async () => {
    const root = tempDir();
    const store = await loadMapStore(root);
    store.set('k1', { ...facts, text: 'map one' });
    await store.save();
    expect((await loadMapStore(root)).get('k1')).toEqual({ ...facts, text: 'map one' });
  });

  it('keeps only the newest entries', async () => {
    const root = tempDir();
    const store = await loadMapStore(root);
    for (let i = 0; i <= MAP_STORE_ENTRIES; i++) store.set(`k${i}`, { ...facts, text: `map ${i}` });
    await store.save();
    const loaded = await loadMapStore(root);
    expect(loaded.get('k0')).toBeUndefined();
    expect(loaded.get(`k${MAP_STORE_ENTRIES}`)?.text).toBe(`map ${MAP_STORE_ENTRIES}`);
  });

  it.each([
    ['a torn file', (good: string) => good.slice(0, good.length - 5)],
    ['another version', (good: string) => good.replace('"version":1', '"version":999')],
    ['an entry of the wrong shape', (good: string) => good.replace('"tokens":10', '"tokens":"ten"')],
  ])('reads %s as an empty store', async (_label, spoil) => {
    const root = tempDir();
    const store = await loadMapStore(root);
    store.set('k', { ...facts, text: 'map' } satisfies StoredMap);
    await store.save();
    const file = mapStorePath(root);
    writeFileSync(file, spoil(readFileSync(file, 'utf8')));
    expect((await loadMapStore(root)).get('k')).toBeUndefined();
  });
});

/** A port that showed the map a first port built and kept on disk (as a second process would). */
async function secondProcess(repo: string): Promise<ReturnType<typeof port>> {
  const first = port(repo);
  await first.get(request(['app/orders.py']));
  await first.flush();
  const second = port(repo);
  await second.get(request(['app/orders.py']));
  expect(second.lastStats()?.fromCache).toBe(true);
  return second;
}

describe('stored maps across processes', () => {
  it('shows the same map from disk on an unchanged repository, without the tag cache', async () => {
    const repo = gitRepo(repoFiles());
    const first = port(repo);
    const built = await first.get(request(['app/orders.py']));
    await first.flush();
    expect(built).toContain('charge_card');
    expect(first.lastStats()?.fromCache).toBe(false);

    // Without its tags a rebuild would show an empty map: only the stored map can show this text.
    rmSync(tagCachePath(repo));
    const second = port(repo);
    expect(await second.get(request(['app/orders.py']))).toBe(built);
    expect(second.lastStats()?.fromCache).toBe(true);
  });

  it('builds again when a listed file changed, a file was added, or the tokenizer differs', async () => {
    const repo = gitRepo(repoFiles());
    const first = port(repo);
    await first.get(request(['app/orders.py']));
    await first.flush();

    writeFileSync(path.join(repo, 'app/billing.py'), 'def refund_payment(amount):\n    return -amount\n');
    const changed = port(repo);
    const afterEdit = await changed.get(request(['app/orders.py']));
    await changed.flush();
    expect(changed.lastStats()?.fromCache).toBe(false);
    expect(afterEdit).toContain('refund_payment');

    mkdirSync(path.join(repo, 'lib'));
    writeFileSync(path.join(repo, 'lib/shipping.py'), 'def ship_parcel(box):\n    return box\n');
    const added = port(repo);
    expect(await added.get(request(['app/orders.py']))).toContain('ship_parcel');
    expect(added.lastStats()?.fromCache).toBe(false);
    await added.flush();

    const otherTokenizer = port(repo, 'llama-3');
    await otherTokenizer.get(request(['app/orders.py']));
    expect(otherTokenizer.lastStats()?.fromCache).toBe(false);
  });

  it('still finds the definitions a request mentions when the map came from disk', async () => {
    const second = await secondProcess(gitRepo(repoFiles()));
    const mentioned = await second.mentionedDefinitions?.({ chatFiles: ['app/orders.py'], requestText: 'use InvoiceBuilder here' }) ?? '';
    expect(mentioned).toContain('app/billing.py');
    expect(mentioned).toContain('class InvoiceBuilder');
  });

  it('loads the tags for Tab completion once asked, when the map came from disk', async () => {
    const second = await secondProcess(gitRepo(repoFiles()));
    second.identifiers();
    await vi.waitFor(() => expect(second.identifiers()).toContain('InvoiceBuilder'));
  });

  it('keeps a map shown from disk in manual mode, until a refresh is asked for', async () => {
    const repo = gitRepo(repoFiles());
    const first = port(repo);
    const built = await first.get(request(['app/orders.py']));
    await first.flush();

    const manual = createRepoMapPort({ root: repo, packageRoot, tokens, refreshMode: 'manual', emit: () => {}, tokenizer: () => 'gpt-4o' });
    expect(await manual.get(request(['app/orders.py']))).toBe(built);
    writeFileSync(path.join(repo, 'app/billing.py'), 'def refund_payment(amount):\n    return -amount\n');
    expect(await manual.get(request(['app/orders.py']))).toBe(built);
    manual.refresh();
    expect(await manual.get(request(['app/orders.py']))).toContain('refund_payment');
  });

  it('keeps nothing on disk when the caller does not say which tokenizer counts', async () => {
    const repo = gitRepo(repoFiles());
    const map = createRepoMapPort({ root: repo, packageRoot, tokens, refreshMode: 'always', emit: () => {} });
    await map.get(request(['app/orders.py']));
    await map.flush();
    expect((await loadMapStore(repo)).get('anything')).toBeUndefined();
    expect(existsSync(mapStorePath(repo))).toBe(false);
  });
});
