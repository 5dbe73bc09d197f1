// The repomap bench's "new chat-file set, warm cache" and "new budget, warm cache" rows alone, for
// interleaved A/B runs of two builds: one process, a first map for one chat file (no map or ranks
// kept on disk), then timed a map for a new chat-file set and one at a new budget, as
// bench/repomap.ts's sameProcessRound does. Prints one JSON line: wall and CPU ms of each.
//
//   node scripts/refit-probe.mjs <package root with dist/ and queries/> <tree> [--text FILE]
// --text writes the two maps' text (to compare builds byte for byte).

import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [packageRoot, treeArg, flag, textOut] = process.argv.slice(2);
const tree = treeArg === undefined ? undefined : path.resolve(treeArg);
if (packageRoot === undefined || tree === undefined) throw new Error('usage: refit-probe.mjs <package root> <tree> [--text FILE]');
const load = (file) => import(pathToFileURL(path.join(packageRoot, 'dist', 'src', file)).href);
const { createRepoMapPort } = await load('cli/repo-map-adapter.js');
const { listMapFiles } = await load('repomap/list-files.js');
const { defaultTagThreads } = await load('repomap/tags-pool.js');
const { get_encoding } = createRequire(path.join(packageRoot, 'package.json'))('tiktoken');
const os = await import('node:os');

const files = await listMapFiles(tree);
const encoder = get_encoding('o200k_base');
const countTokens = (text) => encoder.encode_ordinary(text).length;
rmSync(path.join(tree, '.tandem', 'maps.cache'), { force: true });
rmSync(path.join(tree, '.tandem', 'ranks.cache'), { force: true });
const port = createRepoMapPort({
  root: tree, packageRoot, threads: defaultTagThreads(os.availableParallelism()), tokens: { count: countTokens }, tokenizer: () => 'o200k_base',
  refreshMode: 'always', emit: () => {}, tagCacheDir: path.join(packageRoot, '.bench-cache', 'tag-cache-probe'),
});
const ask = (chatFiles, budget = 1024) => port.get({ chatFiles, readOnlyFiles: [], requestText: '', budget });
const timed = async (work) => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { value, wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
};
const first = files[0] ?? '';
const other = files[Math.floor(files.length / 3)] ?? first;
await ask([first]);
// PROBE_PROFILE=file.cpuprofile: a CPU profile of the two timed maps only.
const profile = process.env.PROBE_PROFILE;
const inspector = profile ? new (await import('node:inspector')).Session() : undefined;
const post = (method, params) => new Promise((resolve, reject) => inspector.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
if (inspector) {
  inspector.connect();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
}
// PROBE_PHASES=1: CPU ms between the marks a patched build calls globalThis.__t(label) at.
const phases = [];
let mark;
if (process.env.PROBE_PHASES) globalThis.__t = (label) => {
  const now = process.cpuUsage();
  if (mark !== undefined) phases.push(`${label} ${((now.user + now.system - mark) / 1000).toFixed(1)}`);
  mark = now.user + now.system;
};
const newChat = await timed(() => ask([first, other]));
// PROBE_CHAT_ONLY=1: the profile covers the new chat-file set's map alone.
if (inspector && process.env.PROBE_CHAT_ONLY) writeFileSync(profile, JSON.stringify((await post('Profiler.stop')).profile));
const newBudget = await timed(() => ask([first, other], 256));
if (inspector && !process.env.PROBE_CHAT_ONLY) writeFileSync(profile, JSON.stringify((await post('Profiler.stop')).profile));
await port.flush();
if (flag === '--text' && textOut !== undefined) writeFileSync(textOut, `${newChat.value}\n=====\n${newBudget.value}`);
encoder.free();
if (phases.length > 0) console.error(phases.join(' | '));
console.log(JSON.stringify({ chatWall: newChat.wall, chatCpu: newChat.cpu, budgetWall: newBudget.wall, budgetCpu: newBudget.cpu }));
process.exit(0);
