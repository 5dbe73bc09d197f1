// Times a new ranker's rank() on the hit path (ranks from .tandem/ranks.cache) over a tree's cached
// tags, as a new process pays it. Usage: node scripts/hit-rank.mjs <dist> <tree> [iterations] [mode]
// mode `fresh`: a ranking from scratch (no store); `same`: one ranker, one file's tags replaced each time.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, treeArg, countText = '15', mode = 'hit'] = process.argv.slice(2);
const tree = path.resolve(treeArg);
const load = (file) => import(pathToFileURL(path.join(path.resolve(dist), 'src', file)).href);
const { loadTagCache } = await load('repomap/tag-cache.js');
const { createRanker } = await load('repomap/rank.js');
const { openRankStore } = await load('repomap/rank-store.js');
const { listMapFiles } = await load('repomap/list-files.js');
const files = await listMapFiles(tree);
const cache = await loadTagCache(tree);
const tags = new Map();
for (const file of files) { const e = cache.get(file); if (e) tags.set(file, e.packed); }
const options = { chatFiles: [files[0]], mentionedFiles: [], mentionedIdents: [], limit: 2304 };
const cpus = [];
let ranker;
let first = '';
let stored;
for (let i = 0; i < Number(countText); i++) {
  const store = mode === 'hit' ? openRankStore(tree) : undefined;
  if (mode === 'same') {
    ranker ??= createRanker();
    if (i === 0) ranker.rank(tags, options);
    // The middle file's tags as a new object with one line moved: a touched file, references unchanged.
    const middle = files[files.length >> 1];
    const packed = tags.get(middle);
    const data = packed.data.slice();
    if (data.length >= 4) data[2] += 1;
    tags.set(middle, { ...packed, data });
  }
  const before = process.cpuUsage();
  if (mode !== 'same') ranker = createRanker({ store });
  const result = ranker.rank(tags, options);
  const used = process.cpuUsage(before);
  stored = ranker.lastWork()?.stored;
  cpus.push((used.user + used.system) / 1000);
  if (i === 0) first = JSON.stringify(result.items.slice(0, 50));
}
cpus.sort((a, b) => a - b);
console.log(JSON.stringify({ stored, median: cpus[cpus.length >> 1].toFixed(1), min: cpus[0].toFixed(1), items: (await import('node:crypto')).createHash('sha256').update(first).digest('hex').slice(0, 10) }));
