// Which maps kept on disk say that the files changed since the same request was answered.
import { describe, expect, it } from 'vitest';
import type { MapSource } from '../../src/repomap/map-source.js';
import { storedMaps, type StoredMapShape } from '../../src/repomap/map-policy.js';
import { tempDir } from '../support/temp-repo.js';

const facts = { text: 'map', tokens: 10, files: 2, tags: 5, definitions: 3, budget: 1024 };

/** Kept maps over a listing whose digests the test sets, keyed as the map keys them. */
function keptMaps() {
  let digest = { sizes: 'sizes as first listed', stamps: 'stamps as first listed' };
  const source = { scan: async () => digest } as unknown as MapSource;
  let shape: StoredMapShape = { version: '1.0.0', tokenizer: 'gpt-4o', noFilesMultiplier: undefined, contextWindow: undefined, subtree: undefined };
  const { maps, save } = storedMaps(tempDir(), source, () => shape);
  const keyFor = async (request: string, budget = 1024): Promise<string> => JSON.stringify([await maps.fingerprint(), request, budget]);
  return {
    maps, save, keyFor,
    changeFiles: (next: { sizes: string; stamps: string }) => void (digest = next),
    changeShape: (next: Partial<StoredMapShape>) => void (shape = { ...shape, ...next }),
  };
}

describe('a map kept before a file was edited', () => {
  it('is found for the same request over files of other sizes, and only then', async () => {
    const kept = keptMaps();
    kept.maps.set(await kept.keyFor('chat: app.py'), facts);
    await kept.save();
    expect(await kept.maps.keptBeforeEdit?.(await kept.keyFor('chat: app.py'))).toBe(false); // same files: the map itself
    expect(await kept.maps.keptBeforeEdit?.(await kept.keyFor('chat: other.py'))).toBe(false); // a new chat set
    expect(await kept.maps.keptBeforeEdit?.(await kept.keyFor('chat: app.py', 2048))).toBe(false); // a new budget
    kept.changeFiles({ sizes: 'sizes as first listed', stamps: 'after a checkout' });
    expect(await kept.maps.keptBeforeEdit?.(await kept.keyFor('chat: app.py'))).toBe(false); // mtimes alone moved
    kept.changeFiles({ sizes: 'one file grew', stamps: 'one file edited' });
    expect(await kept.maps.keptBeforeEdit?.(await kept.keyFor('chat: app.py'))).toBe(true);
    kept.maps.set(await kept.keyFor('chat: app.py'), facts);
    await kept.save();
    kept.changeFiles({ sizes: 'sizes as first listed', stamps: 'checked out back' });
    expect(await kept.maps.keptBeforeEdit?.(await kept.keyFor('chat: app.py'))).toBe(false); // sizes a kept map saw
    kept.changeFiles({ sizes: 'grew again', stamps: 'edited again' });
    expect(await kept.maps.keptBeforeEdit?.(await kept.keyFor('chat: app.py'))).toBe(true);
    expect(await kept.maps.keptBeforeEdit?.(await kept.keyFor('chat: other.py'))).toBe(false);
    kept.changeShape({ tokenizer: 'another-model' });
    expect(await kept.maps.keptBeforeEdit?.(await kept.keyFor('chat: app.py'))).toBe(false); // another tokenizer: not the same request
  });

  it('is not found for a key of another form', async () => {
    const kept = keptMaps();
    kept.maps.set('not json', facts);
    kept.maps.set(JSON.stringify([42, 'chat: app.py', 1024]), facts);
    await kept.save();
    expect(await kept.maps.keptBeforeEdit?.('not json either')).toBe(false);
    expect(await kept.maps.keptBeforeEdit?.(await kept.keyFor('chat: app.py'))).toBe(false);
  });
});
