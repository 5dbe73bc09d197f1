// Rankings kept on disk (.tandem/ranks.cache): a new process whose ranking inputs are unchanged takes
// the kept ranks, bit for bit what a ranking from scratch computes; any change of the inputs misses;
// a torn, foreign, planted or linked file reads as absent.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRepoMapPort } from '../../src/cli/repo-map-adapter.js';
import { NameTable } from '../../src/repomap/name-table.js';
import { packTags, type PackedTags } from '../../src/repomap/packed-tags.js';
import { createRanker, rankDefinitions, type RankOptions, type RankResult } from '../../src/repomap/rank.js';
import { openRankStore, rankStorePath, RANK_STORE_ENTRIES } from '../../src/repomap/rank-store.js';
import { createStateReader, STATE_CAPS } from '../../src/platform/state-files.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';
import { SMALL_REPO, generatedRepo, makeTags } from './map-fixture.js';

const REAL_ISH = { ...generatedRepo(30), ...SMALL_REPO };
const OPTIONS: RankOptions = { chatFiles: ['src/app.ts'], limit: 60 };

/** The tree's tags on one table, as the tag cache keeps them; `edit` gives one file new text and tags. */
function tree(files: Record<string, string> = REAL_ISH): { tags: Map<string, PackedTags>; edit: (file: string, change: (text: string) => string) => void } {
  const table = new NameTable();
  const texts = new Map(Object.entries(files));
  const tags = new Map<string, PackedTags>();
  const retag = (file: string): void => void tags.set(file, table.adopt(packTags(makeTags(file, texts.get(file) ?? ''))));
  for (const file of texts.keys()) retag(file);
  return {
    tags,
    edit: (file, change) => {
      texts.set(file, change(texts.get(file) ?? ''));
      retag(file);
    },
  };
}

/** Every rank as its bits: equal only when the numbers are the very same. */
function bits(result: RankResult): string[] {
  const ranks = [...result.fileRanks.values(), ...result.items.map((item) => item.rank)];
  return ranks.map((rank) => Buffer.from(new Float64Array([rank]).buffer).toString('hex'));
}

function expectSameRanking(result: RankResult, full: RankResult): void {
  expect(JSON.stringify(result.items)).toBe(JSON.stringify(full.items));
  expect(bits(result)).toEqual(bits(full));
  expect([...result.fileRanks.keys()]).toEqual([...full.fileRanks.keys()]);
}

/** One process's ranking with the store kept in `root` (written before it returns). */
async function rankInNewProcess(root: string, tags: ReadonlyMap<string, PackedTags>, options: RankOptions = OPTIONS) {
  const store = openRankStore(root);
  const ranker = createRanker({ store });
  const result = ranker.rank(tags, options);
  await store.flush();
  return { result, work: ranker.lastWork() };
}

describe('rankings kept across processes', () => {
  it('takes the kept ranks bit for bit for unchanged inputs, building no graph', async () => {
    const root = tempDir();
    const { tags } = tree();
    const first = await rankInNewProcess(root, tags);
    expect(first.work).toEqual({ indexed: true, rowsBuilt: Object.keys(REAL_ISH).length, ranked: true, stored: false });
    const second = await rankInNewProcess(root, tags);
    expect(second.work).toEqual({ indexed: true, rowsBuilt: 0, ranked: false, stored: true });
    const full = rankDefinitions(tags, OPTIONS);
    expectSameRanking(second.result, full);
    // The graph is built only when asked for, and is the same graph.
    expect(second.result.adjacency).toEqual(full.adjacency);
  });

  it('takes them after an edit that only moves lines, with the definitions at their new lines', async () => {
    const root = tempDir();
    const { tags, edit } = tree();
    await rankInNewProcess(root, tags);
    edit('pkg/module_004.ts', (text) => `\n\n${text}\n`);
    const after = await rankInNewProcess(root, tags);
    expect(after.work?.stored).toBe(true);
    expectSameRanking(after.result, rankDefinitions(tags, OPTIONS));
  });

  it('takes them after a new call of a name no file defines (a library function)', async () => {
    const root = tempDir();
    const { tags, edit } = tree();
    await rankInNewProcess(root, tags);
    edit('pkg/module_004.ts', (text) => `${text}\nexport const parsed = JSON.parse(someLibraryReader.readEverything());\n`);
    const after = await rankInNewProcess(root, tags);
    expect(after.work?.stored).toBe(true);
    expectSameRanking(after.result, rankDefinitions(tags, OPTIONS));
  });

  it.each([
    ['a new reference to a name defined elsewhere', 'src/logging/logger.ts', (text: string) => `${text}\nexport const other = calculateInvoiceTotal([1]);\n`],
    ['one more use of a name it already references', 'pkg/main.ts', (text: string) => text.replace('export function run(): void {', 'export function run(): void {\n  new Service1Manager();')],
    ['a second definer of a referenced name', 'pkg/module_010.ts', (text: string) => `${text}\nexport function createLogger(): number {\n  return 1;\n}\n`],
  ])('ranks afresh after %s, and keeps that ranking too', async (_label, file, change) => {
    const root = tempDir();
    const { tags, edit } = tree();
    await rankInNewProcess(root, tags);
    edit(file, change);
    const after = await rankInNewProcess(root, tags);
    expect(after.work).toMatchObject({ ranked: true, stored: false });
    expectSameRanking(after.result, rankDefinitions(tags, OPTIONS));
    expect((await rankInNewProcess(root, tags)).work?.stored).toBe(true);
  });

  it('keys on the chat set, the mentioned names and the files', async () => {
    const root = tempDir();
    const { tags } = tree();
    await rankInNewProcess(root, tags);
    for (const options of [{ chatFiles: ['pkg/main.ts'] }, { ...OPTIONS, mentionedIdents: ['calculateInvoiceTotal'] }, { ...OPTIONS, mentionedFiles: ['src/geometry/shapes.ts'] }]) {
      const other = await rankInNewProcess(root, tags, options);
      expect(other.work?.stored).toBe(false);
      expectSameRanking(other.result, rankDefinitions(tags, options));
    }
    const fewer = new Map(tags);
    fewer.delete('pkg/module_020.ts');
    expect((await rankInNewProcess(root, fewer)).work?.stored).toBe(false);
    // The newest few chat sets are kept.
    expect((await rankInNewProcess(root, tags, { chatFiles: ['pkg/main.ts'] })).work?.stored).toBe(true);
  });

  it('writes a ranking at flush (or once no other followed for a moment), not while maps are asked for one after another', async () => {
    const root = tempDir();
    const { tags } = tree();
    const store = openRankStore(root);
    createRanker({ store }).rank(tags, OPTIONS);
    await new Promise((resolve) => setImmediate(resolve));
    expect(existsSync(rankStorePath(root))).toBe(false);
    await store.flush();
    expect(existsSync(rankStorePath(root))).toBe(true);
  });

  it(`keeps the newest ${RANK_STORE_ENTRIES} rankings`, async () => {
    const root = tempDir();
    const { tags } = tree();
    const chats = ['src/app.ts', 'pkg/main.ts', 'src/geometry/shapes.ts', 'src/logging/logger.ts', 'pkg/module_001.ts'];
    for (const chat of chats) await rankInNewProcess(root, tags, { chatFiles: [chat] });
    expect((await rankInNewProcess(root, tags, { chatFiles: [chats[0] ?? ''] })).work?.stored).toBe(false);
    expect((await rankInNewProcess(root, tags, { chatFiles: [chats[4] ?? ''] })).work?.stored).toBe(true);
  });
});

describe('a ranks file that is not one this tandem wrote', () => {
  /** A store written for `tags`, spoiled, then read by a new ranker: it must rank afresh, the same. */
  async function afterSpoiling(spoil: (file: string, root: string) => void, reader?: (root: string) => ReturnType<typeof createStateReader>): Promise<void> {
    const root = tempDir();
    const { tags } = tree();
    await rankInNewProcess(root, tags);
    const file = rankStorePath(root);
    spoil(file, root);
    const store = openRankStore(root, reader?.(root));
    const ranker = createRanker({ store });
    const result = ranker.rank(tags, OPTIONS);
    expect(ranker.lastWork()).toMatchObject({ ranked: true, stored: false });
    expectSameRanking(result, rankDefinitions(tags, OPTIONS));
  }

  const headerEnd = (data: Buffer): number => data.indexOf(0x0a);
  it.each([
    ['torn', (file: string) => truncateSync(file, readFileSync(file).length - 3)],
    ['cut after its header', (file: string) => truncateSync(file, headerEnd(readFileSync(file)) + 1)],
    ['longer than its entries', (file: string) => appendFileSync(file, Buffer.alloc(8))],
    ['of another version', (file: string) => writeFileSync(file, readFileSync(file).toString('latin1').replace('"version":1', '"version":99'), 'latin1')],
    ['of another format', (file: string) => writeFileSync(file, readFileSync(file).toString('latin1').replace('tandem-ranks', 'tandem-other'), 'latin1')],
    ['of another byte order', (file: string) => writeFileSync(file, readFileSync(file).toString('latin1').replace(/"endian":"(le|be)"/, '"endian":"xx"'), 'latin1')],
    ['with a number changed', (file: string) => {
      const data = readFileSync(file);
      data.writeUInt8((data.at(-1) ?? 0) ^ 0x40, data.length - 1);
      writeFileSync(file, data);
    }],
    ['with no header line', (file: string) => writeFileSync(file, Buffer.alloc(64 * 1024, 0x41))],
    ['of text', (file: string) => writeFileSync(file, 'not a ranks file\n')],
    ['empty', (file: string) => writeFileSync(file, '')],
  ])('reads a file %s as absent', async (_label, spoil) => {
    await afterSpoiling(spoil);
  });

  it('refuses entries whose numbers are not ranks, though their sums match', async () => {
    await afterSpoiling((file) => {
      const data = readFileSync(file);
      const at = headerEnd(data) + 1;
      new DataView(data.buffer, data.byteOffset).setFloat64(at, Number.NaN, true);
      const numbers = data.subarray(at);
      const sum = createHash('sha256').update(numbers).digest('hex');
      const header = JSON.parse(data.subarray(0, at - 1).toString('utf8')) as { entries: { sum: string }[] };
      header.entries[0] = { ...header.entries[0], sum } as { sum: string };
      writeFileSync(file, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), numbers]));
    });
  });

  it('ignores a file git tracks (it came with the repository)', async () => {
    await afterSpoiling(() => {}, (root) => createStateReader(root, { tracked: new Set(['.tandem/ranks.cache']) }));
  });

  it('ignores a link, whatever it points at', async () => {
    await afterSpoiling((file, root) => {
      const real = path.join(root, 'elsewhere.cache');
      writeFileSync(real, readFileSync(file));
      rmSync(file);
      symlinkSync(real, file);
    });
  });

  it('does not read a FIFO (no hang) or a file over the size cap (no memory filled)', async () => {
    await afterSpoiling((file) => {
      rmSync(file);
      execFileSync('mkfifo', [file]);
    });
    await afterSpoiling((file) => truncateSync(file, STATE_CAPS.ranksCache + 1));
  });
});

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tokens = { count: (text: string) => Math.ceil(text.length / 4) };

function pythonRepo(): Record<string, string> {
  return {
    'app/orders.py': 'from app.billing import charge_card\n\n\ndef place_order(cart):\n    return charge_card(cart.total)\n',
    'app/billing.py': 'def charge_card(amount):\n    return amount\n\n\nclass InvoiceBuilder:\n    def build(self):\n        return charge_card(1)\n',
    'app/report.py': 'class SalesReport:\n    def total(self):\n        return 0\n\n\ndef print_report(report):\n    return report.total()\n',
    'app/shipping.py': 'def ship_order(order):\n    return place_order(order)\n',
  };
}

describe('the repository map with kept rankings', () => {
  /** One process's map (the CLI's adapter), its stats, and its writes done. */
  async function mapOf(repo: string) {
    const port = createRepoMapPort({ root: repo, packageRoot, tokens, refreshMode: 'always', emit: () => {} });
    const text = await port.get({ chatFiles: ['app/orders.py'], readOnlyFiles: [], requestText: '', budget: 1024 });
    await port.flush();
    return { text, ranking: port.lastStats()?.ranking };
  }

  async function fromScratch(repo: string): Promise<string> {
    rmSync(rankStorePath(repo), { force: true });
    const { text, ranking } = await mapOf(repo);
    expect(ranking?.stored).toBe(false);
    return text;
  }

  it('shows the same map from kept ranks after a touched file, and ranks afresh when its references change', async () => {
    const repo = gitRepo(pythonRepo());
    const first = await mapOf(repo);
    expect(first.ranking).toMatchObject({ ranked: true, stored: false });
    appendFileSync(path.join(repo, 'app/report.py'), '\n');
    const touched = await mapOf(repo);
    expect(touched.ranking).toMatchObject({ ranked: false, stored: true });
    expect(touched.text).toBe(first.text);
    expect(touched.text).toBe(await fromScratch(repo));

    appendFileSync(path.join(repo, 'app/report.py'), '\ndef audit():\n    return charge_card(2)\n');
    const changed = await mapOf(repo);
    expect(changed.ranking).toMatchObject({ ranked: true, stored: false });
    expect(changed.text).toContain('audit');
    expect(changed.text).toBe(await fromScratch(repo));
  });

  it('keeps and finds the ranks when the root is given as a relative path', async () => {
    const repo = gitRepo(pythonRepo());
    const relative = path.relative(process.cwd(), repo);
    expect(path.isAbsolute(relative)).toBe(false);
    const first = await mapOf(relative);
    expect(first.ranking).toMatchObject({ ranked: true, stored: false });
    appendFileSync(path.join(repo, 'app/report.py'), '\n');
    const touched = await mapOf(relative);
    expect(touched.ranking).toMatchObject({ ranked: false, stored: true });
    expect(touched.text).toBe(first.text);
  });

  it('writes the ranks file under .tandem/ as a regular file of a few numbers per definition', async () => {
    const repo = gitRepo(pythonRepo());
    await mapOf(repo);
    const data = readFileSync(rankStorePath(repo));
    const header = JSON.parse(data.subarray(0, data.indexOf(0x0a)).toString('utf8')) as { entries: { files: number; slots: number }[] };
    expect(header.entries).toHaveLength(1);
    expect(header.entries[0]?.files).toBe(4);
    expect(data.length).toBe(data.indexOf(0x0a) + 1 + ((header.entries[0]?.files ?? 0) + (header.entries[0]?.slots ?? 0)) * 8);
  });
});
