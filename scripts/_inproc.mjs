import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const dist = '/work/main/dist';
const load = (file) => import(pathToFileURL(path.join(dist, 'src', file)).href);
const { createRepoMapPort } = await load('cli/repo-map-adapter.js');
const { listMapFiles } = await load('repomap/list-files.js');
const { get_encoding } = await import('tiktoken');
const encoder = get_encoding('o200k_base');
const countTokens = (text) => encoder.encode_ordinary(text).length;
const tagCacheDir = '/tmp/inproc-tags';
async function cold(tree) {
  rmSync(path.join(tree, '.tandem'), { recursive: true, force: true });
  rmSync(tagCacheDir, { recursive: true, force: true });
  const files = await listMapFiles(tree);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const port = createRepoMapPort({ root: tree, packageRoot: '/work/main', threads: 2, tokens: { count: countTokens }, tokenizer: () => 'o200k_base', refreshMode: 'always', emit: () => {}, tagCacheDir });
  await port.get({ chatFiles: [files[0]], readOnlyFiles: [], requestText: '', budget: 1024 });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await port.flush();
  console.log(path.basename(path.dirname(tree)), Math.round(ms), Math.round((used.user + used.system) / 1000), Math.round(process.memoryUsage().rss/1e6));
}
const poly = '/work/main/.bench-cache/npm/node-gyp@11.2.0/package';
for (const t of (process.env.ORDER ?? 'p,y,p,p').split(',')) await cold(t === 'p' ? poly : '/work/main/.bench-cache/real-python-v2');
process.exit(0);
