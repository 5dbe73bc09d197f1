// The CLI's repo map adapter on real temp repositories: progress only for many parses, the no-chat
// budget growth and its hard cap, and the terminal progress bar's output.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import {
  createProgressBar, createRepoMapPort, PROGRESS_MIN_FILES,
} from '../../src/cli/repo-map-adapter.js';
import { noChatMaxBudget, NO_CHAT_MAX_TOKENS } from '../../src/repomap/map-policy.js';
import { gitRepo } from '../support/temp-repo.js';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tokens = { count: (text: string) => Math.ceil(text.length / 4) };

function moduleFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    files[`pkg/module_${String(i).padStart(3, '0')}.py`] =
      `def handle_request_${i}(payload):\n    return forward_payload_${(i + 1) % count}(payload)\n\n\ndef forward_payload_${i}(payload):\n    return payload\n`;
  }
  return files;
}

function port(root: string, extra: { progress?: (done: number, total: number) => void; contextWindow?: number; noFilesMultiplier?: number } = {}) {
  return createRepoMapPort({ root, packageRoot, tokens, refreshMode: 'always', emit: () => {}, ...extra });
}

describe('repo map adapter', () => {
  it('reports progress when many files are parsed, and not on the warm run after', async () => {
    const repo = gitRepo(moduleFiles(PROGRESS_MIN_FILES + 5));
    const calls: Array<[number, number]> = [];
    const map = port(repo, { progress: (done, total) => calls.push([done, total]) });

    await map.get({ chatFiles: ['pkg/module_000.py'], readOnlyFiles: [], requestText: '', budget: 256 });
    expect(calls.length).toBe(PROGRESS_MIN_FILES + 5);
    expect(calls.at(-1)).toEqual([PROGRESS_MIN_FILES + 5, PROGRESS_MIN_FILES + 5]);

    calls.length = 0;
    await map.get({ chatFiles: ['pkg/module_001.py'], readOnlyFiles: [], requestText: '', budget: 256 });
    expect(calls).toEqual([]);
  });

  it('stays silent when only a few files are parsed', async () => {
    const repo = gitRepo(moduleFiles(20));
    const calls: number[] = [];
    await port(repo, { progress: (done) => calls.push(done) }).get({ chatFiles: [], readOnlyFiles: [], requestText: '', budget: 256 });
    expect(calls).toEqual([]);
  });

  it('grows the budget with no chat files by --map-multiplier-no-files, up to the hard cap', async () => {
    const repo = gitRepo(moduleFiles(120));
    const request = { readOnlyFiles: [], requestText: '', budget: 200 };

    const withChat = await port(repo).get({ ...request, chatFiles: ['pkg/module_000.py'] });
    const grown = await port(repo).get({ ...request, chatFiles: [] });
    const grownMore = await port(repo, { noFilesMultiplier: 8 }).get({ ...request, chatFiles: [] });
    const capped = await port(repo, { noFilesMultiplier: 8, contextWindow: 4000 }).get({ ...request, chatFiles: [] });
    const smallWindow = await port(repo, { contextWindow: 800 }).get({ ...request, budget: 1000, chatFiles: [] });

    expect(tokens.count(withChat)).toBeLessThanOrEqual(200);
    expect(tokens.count(grown)).toBeGreaterThan(300);
    expect(tokens.count(grown)).toBeLessThanOrEqual(400);
    expect(tokens.count(grownMore)).toBeGreaterThan(1000);
    expect(tokens.count(grownMore)).toBeLessThanOrEqual(1600);
    expect(tokens.count(capped)).toBeGreaterThan(400);
    expect(tokens.count(capped)).toBeLessThanOrEqual(500);
    // An eighth of the window bounds the no-files map even below --map-tokens itself.
    expect(tokens.count(smallWindow)).toBeGreaterThan(0);
    expect(tokens.count(smallWindow)).toBeLessThanOrEqual(100);
  });

  it('caps at an eighth of the context window, or a fixed ceiling when unknown', () => {
    expect(noChatMaxBudget(128_000)).toBe(16_000);
    expect(noChatMaxBudget(undefined)).toBe(NO_CHAT_MAX_TOKENS);
  });

  it('draws a bar in place and clears it when done', () => {
    let out = '';
    const bar = createProgressBar({ write: (text) => (out += text), columns: 80, label: 'Scanning' });
    bar(0, 400);
    bar(1, 400); // same percent: not redrawn
    bar(200, 400);
    expect(out.split('\r').filter(Boolean)).toEqual([
      `Scanning [${'.'.repeat(40)}] 0/400 files`,
      `Scanning [${'#'.repeat(20)}${'.'.repeat(20)}] 200/400 files`,
    ]);
    out = '';
    bar(400, 400);
    expect(out).toBe('\r\x1b[2K');
  });
});
