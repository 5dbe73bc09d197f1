// Reproduces the bench's polyglot cold map: a new map port on a tree with no tag cache, in a fresh
// process per round (so grammars and queries compile as a new user's first map does).
// Usage: node scripts/polyglot-row.mjs <dist folder> <tree> [rounds]  (prints ms and cpu per round); the tree is
// the bench's node-gyp one (.bench-cache/npm/node-gyp@*/package), which the bench makes a git repository.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, treeArg, roundsText = '3', child] = process.argv.slice(2);
const tree = path.resolve(treeArg);
const tagCacheDir = path.join(tree, '..', `${path.basename(tree)}-user-tags`);
if (child !== 'child') {
  const rows = [];
  for (let round = 0; round < Number(roundsText); round++) {
    rmSync(path.join(tree, '.tandem'), { recursive: true, force: true });
    rmSync(tagCacheDir, { recursive: true, force: true });
    rows.push(JSON.parse(execFileSync(process.execPath, [process.argv[1], dist, tree, '1', 'child'], { encoding: 'utf8' })));
  }
  console.log(JSON.stringify(rows));
} else {
  const load = (file) => import(pathToFileURL(path.join(path.resolve(dist), 'src', file)).href);
  const { createRepoMapPort } = await load('cli/repo-map-adapter.js');
  const { listMapFiles } = await load('repomap/list-files.js');
  const { get_encoding } = await import('tiktoken');
  const encoder = get_encoding('o200k_base');
  const countTokens = (text) => encoder.encode_ordinary(text).length;
  const files = await listMapFiles(tree);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const port = createRepoMapPort({ root: tree, packageRoot: path.resolve(dist, '..'), threads: 2, tokens: { count: countTokens }, tokenizer: () => 'o200k_base', refreshMode: 'always', emit: () => {}, tagCacheDir });
  await port.get({ chatFiles: [files[0]], readOnlyFiles: [], requestText: '', budget: 1024 });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await port.flush();
  console.log(JSON.stringify({ ms: Math.round(ms), cpu: Math.round((used.user + used.system) / 1000), tags: port.lastStats()?.tags }));
  process.exit(0);
}
