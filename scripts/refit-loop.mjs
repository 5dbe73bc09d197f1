// In one process: a first map, then `rounds` maps each for a new chat-file set (cycling through
// files) and each at budget 256: median CPU ms of each kind, and of each phase a patched build marks
// with globalThis.__t(label). node scripts/refit-loop.mjs <package root> <tree> [rounds]
// LOOP_COUNTS=1: how many token counts (and characters) each map's fit asked for.
import { createRequire } from 'node:module';
import path from 'node:path';
import os from 'node:os';
import { pathToFileURL } from 'node:url';

const [packageRoot, treeArg, roundsArg] = process.argv.slice(2);
const tree = path.resolve(treeArg);
const rounds = Number(roundsArg ?? 8);
const load = (file) => import(pathToFileURL(path.join(packageRoot, 'dist', 'src', file)).href);
const { createRepoMapPort } = await load('cli/repo-map-adapter.js');
const { listMapFiles } = await load('repomap/list-files.js');
const { get_encoding } = createRequire(path.join(packageRoot, 'package.json'))('tiktoken');
import { rmSync } from 'node:fs';
const files = await listMapFiles(tree);
// No map or ranking kept on disk by an earlier run: each map here is built.
rmSync(path.join(tree, '.tandem', 'maps.cache'), { force: true });
rmSync(path.join(tree, '.tandem', 'ranks.cache'), { force: true });
const encoder = get_encoding('o200k_base');
const port = createRepoMapPort({
  root: tree, packageRoot, threads: 1, tokens: { count: (t) => { globalThis.__counts = (globalThis.__counts ?? 0) + 1; globalThis.__chars = (globalThis.__chars ?? 0) + t.length; return encoder.encode_ordinary(t).length; } }, tokenizer: () => 'o200k_base',
  refreshMode: 'always', emit: () => {}, tagCacheDir: path.join(packageRoot, '.bench-cache', 'tag-cache-probe'),
});
const ask = (chatFiles, budget = 1024) => port.get({ chatFiles, readOnlyFiles: [], requestText: '', budget });
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const phases = new Map();
let mark;
globalThis.__t = (label) => {
  const now = cpu();
  if (mark !== undefined) { const list = phases.get(label) ?? []; list.push(now - mark); phases.set(label, list); }
  mark = now;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const first = files[0];
await ask([first]);
const chat = [], budget = [];
const texts = [];
for (let r = 0; r < rounds; r++) {
  const other = files[Math.floor((files.length * (r + 1)) / (rounds + 2))];
  mark = undefined;
  let t = cpu();
  globalThis.__counts = 0; globalThis.__chars = 0;
  texts.push(await ask([first, other]));
  if (process.env.LOOP_COUNTS) console.error('chat counts', globalThis.__counts, globalThis.__chars);
  chat.push(cpu() - t);
  mark = undefined;
  t = cpu();
  globalThis.__counts = 0; globalThis.__chars = 0;
  texts.push(await ask([first, other], 256));
  if (process.env.LOOP_COUNTS) console.error('budget counts', globalThis.__counts, globalThis.__chars);
  budget.push(cpu() - t);
}
await port.flush();
const { createHash } = await import('node:crypto');
console.log(JSON.stringify({ chat: median(chat), budget: median(budget), digest: createHash('sha1').update(texts.join('\0')).digest('hex').slice(0, 12),
  phases: Object.fromEntries([...phases].map(([k, v]) => [k, +median(v).toFixed(1)])) }));
encoder.free();
process.exit(0);
