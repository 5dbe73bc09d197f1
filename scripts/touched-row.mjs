// Reproduces the bench's "one file touched" row of a big Python tree: a new map port (as a new
// process builds its map) after the middle listed file gained a comment line (a content never seen,
// so it is parsed; no reference moved, so the ranks kept in .tandem/ranks.cache apply).
// Usage: node scripts/touched-row.mjs <dist folder> <tree> [rounds]  (prints JSON: ms and cpu per round)
// The first round of a tree never mapped is cold; use a copy of the bench's tree per build compared
// (each build writes the tree's .tandem/ and the user tag cache beside it). The touched file is restored.
// The root is made absolute: under a relative root the state reader resolves rankStorePath(root) against
// the root a second time, refuses it as not under .tandem/, and every map ranks afresh.
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { get_encoding } from 'tiktoken';

const [dist, treeArg, roundsText = '4'] = process.argv.slice(2);
const tree = path.resolve(treeArg);
const load = (file) => import(pathToFileURL(path.join(path.resolve(dist), 'src', file)).href);
const { createRepoMapPort } = await load('cli/repo-map-adapter.js');
const { listMapFiles } = await load('repomap/list-files.js');
const encoder = get_encoding('o200k_base');
const countTokens = (text) => encoder.encode_ordinary(text).length;
const files = await listMapFiles(tree);
const chatFile = files[0] ?? '';
const touched = path.join(tree, files[Math.floor(files.length / 2)] ?? '');
const original = await readFile(touched);
const tagCacheDir = path.join(tree, '..', `${path.basename(tree)}-user-tags`);
// PROFILE=<file>: a CPU profile (main thread) of every round after the first.
const profiler = process.env.PROFILE ? new (await import('node:inspector')).Session() : undefined;
const post = (method, params) => new Promise((resolve, reject) => profiler.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
if (profiler) { profiler.connect(); await post('Profiler.enable'); await post('Profiler.setSamplingInterval', { interval: 200 }); }
let profiling = false;
const build = async (last, round = 0) => {
  const port = createRepoMapPort({ root: tree, packageRoot: path.resolve(dist, '..'), threads: 2, tokens: { count: countTokens }, tokenizer: () => 'o200k_base', refreshMode: 'always', emit: () => {}, tagCacheDir });
  // Every round's build after the first (JIT warm, as after the bench's cold and warm builds).
  if (round > 0 && profiler && !profiling) { profiling = true; await post('Profiler.start'); }
  const cpu = process.cpuUsage();
  const started = performance.now();
  const text = await port.get({ chatFiles: [chatFile], readOnlyFiles: [], requestText: '', budget: 1024 });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (last && profiler && profiling) (await import('node:fs')).writeFileSync(process.env.PROFILE, JSON.stringify((await post('Profiler.stop')).profile));
  await port.flush();
  return { ms, cpu: (used.user + used.system) / 1000, text, stats: port.lastStats() };
};
const out = [];
let text;
try {
  for (let round = 0; round < Number(roundsText); round++) {
    // A content no run saw before (a comment: no tag moves), so the touched file is parsed, as in the bench.
    await appendFile(touched, `# touched ${process.pid} ${round}\n`);
    const r = await build(round === Number(roundsText) - 1, round);
    if (text !== undefined && r.text !== text) throw new Error('map text changed between rounds');
    text = r.text;
    out.push({ ms: Math.round(r.ms), cpu: Math.round(r.cpu), stored: r.stats?.ranking?.stored });
  }
} finally {
  await writeFile(touched, original);
}
process.stdout.write(`${JSON.stringify({ rounds: out, textSha: (await import('node:crypto')).createHash('sha256').update(text ?? '').digest('hex').slice(0, 12) })}\n`);
