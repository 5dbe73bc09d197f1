// Reproduces only the repomap bench's "branch switch changing 10% of files" row, for A/B runs of two
// builds without the whole section. In one process, as the bench does:
//
//   node scripts/branch-switch-row.mjs prime BUILD DATA      once: fills DATA/shared-pristine (a cold map of the first clone)
//   node scripts/branch-switch-row.mjs run BUILD DATA [ROUNDS]
//
// BUILD: a built tandem worktree (its dist/ and node_modules/); DATA: a .bench-cache folder holding
// real-python-v2 and real-python-v2-second-clone (made by the bench). Each round copies the pristine
// shared cache, maps the second clone (its own caches emptied), appends a comment to every tenth file,
// and times the map after that switch: wall, the process's CPU, and the CPU of each thread (main, the
// threads started during the map, V8's and libuv's older threads), read from /proc. One JSON line per
// round; `text` is a digest of the map (the round's comment masked), equal across builds.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { appendFile, cp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [mode, buildArg, dataArg, roundsArg] = process.argv.slice(2);
if ((mode !== 'prime' && mode !== 'run') || !buildArg || !dataArg) {
  console.error('usage: branch-switch-row.mjs prime|run BUILD DATA [ROUNDS]');
  process.exit(2);
}
const build = path.resolve(buildArg);
const data = path.resolve(dataArg);
const tree = path.join(data, 'real-python-v2');
const clone = path.join(data, 'real-python-v2-second-clone');
const pristine = path.join(data, 'shared-pristine');
const load = (file) => import(pathToFileURL(path.join(build, 'dist', file)).href);
const { createRepoMapPort } = await load('src/cli/repo-map-adapter.js');
const { RequestListing } = await load('src/git/repo-listing.js');
const { listMapFiles } = await load('src/repomap/list-files.js');
const { mapStorePath } = await load('src/repomap/map-store.js');
const { rankStorePath } = await load('src/repomap/rank-store.js');
const { tagCachePath } = await load('src/repomap/tag-cache.js');
const { createTagExtractor } = await load('src/repomap/extract-tags.js');
const { createGrammarLoader } = await load('src/platform/tree-sitter.js');
const { createTagsPool } = await load('src/repomap/tags-pool.js');
const { get_encoding } = createRequire(path.join(build, 'package.json'))('tiktoken');
const encoder = get_encoding('o200k_base');
// PROFILE=<file>: a CPU profile (main thread) of the last round's timed map. For the parser threads' own
// profiles run the script with node --cpu-prof --cpu-prof-dir=DIR (one file per thread).
const profiler = process.env.PROFILE ? new (await import('node:inspector')).Session() : undefined;
const post = (method, params) => new Promise((resolve, reject) => profiler.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
if (profiler) { profiler.connect(); await post('Profiler.enable'); await post('Profiler.setSamplingInterval', { interval: 200 }); }
const countTokens = (text) => encoder.encode_ordinary(text).length;
const files = await listMapFiles(tree);
const chatFile = files[0];
const clearRepoCaches = (root) => Promise.all([tagCachePath(root), mapStorePath(root), rankStorePath(root)].map((file) => rm(file, { force: true })));

async function map(root, tagCacheDir, withListing) {
  const listing = withListing ? new RequestListing(root) : undefined;
  const port = createRepoMapPort({
    root, packageRoot: build, threads: Number(process.env.THREADS ?? 2), tokens: { count: countTokens }, tokenizer: () => 'o200k_base',
    refreshMode: 'always', emit: () => {}, tagCacheDir,
    ...(listing ? { listFiles: () => listing.files(), cleanBlobs: () => listing.cleanBlobs() } : {}),
  });
  const text = await port.get({ chatFiles: [chatFile], readOnlyFiles: [], requestText: '', budget: 1024 });
  return { text, flush: () => port.flush() };
}

/** CPU ms of each thread of this process (utime + stime from /proc, 100 ticks a second). */
function threadCpu() {
  const out = new Map();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

if (mode === 'prime') {
  await clearRepoCaches(tree);
  await rm(pristine, { recursive: true, force: true });
  const started = performance.now();
  const cold = await map(tree, pristine, false);
  await cold.flush();
  console.log(JSON.stringify({ primedMs: Math.round(performance.now() - started) }));
} else {
  const switched = files.filter((_, i) => i % 10 === 5);
  // The bench's main thread has parsed with tree-sitter before its rounds (its reference line): so has this one.
  const extractor = createTagExtractor(createGrammarLoader(), path.join(build, 'queries'));
  for (const file of files.slice(0, 20)) await extractor.extract(path.join(tree, file), await readFile(path.join(tree, file), 'utf8'));
  const scratch = path.join(data, `shared-${process.pid}`);
  for (let round = 0; round < Number(roundsArg ?? 3); round++) {
    await rm(scratch, { recursive: true, force: true });
    await cp(pristine, scratch, { recursive: true });
    await clearRepoCaches(clone);
    const second = await map(clone, scratch, true);
    await second.flush();
    const originals = await Promise.all(switched.map((file) => readFile(path.join(clone, file))));
    const mark = `${process.pid}-${round}`;
    await Promise.all(switched.map((file) => appendFile(path.join(clone, file), `\n# branch ${mark}\n`)));
    await rm(rankStorePath(clone), { force: true });
    try {
      const before = threadCpu();
      const seen = new Map();
      const poll = setInterval(() => threadCpu().forEach((ms, tid) => seen.set(tid, ms)), 20);
      const last = round === Number(roundsArg ?? 3) - 1;
      if (last && profiler) await post('Profiler.start');
      const cpu = process.cpuUsage();
      const started = performance.now();
      const after = await map(clone, scratch, true);
      const wallMs = performance.now() - started;
      if (last && profiler) (await import('node:fs')).writeFileSync(process.env.PROFILE, JSON.stringify((await post('Profiler.stop')).profile));
      const { user, system } = process.cpuUsage(cpu);
      clearInterval(poll);
      threadCpu().forEach((ms, tid) => seen.set(tid, ms));
      const threads = { main: 0, started: 0, older: 0 };
      // THREADS_BY_ID=1: the CPU of each older thread (V8's platform threads, libuv's) of at least 20 ms.
      const byId = {};
      for (const [tid, ms] of seen) {
        const spent = ms - (before.get(tid) ?? 0);
        if (tid === String(process.pid)) threads.main += spent;
        else if (before.has(tid)) threads.older += spent;
        else threads.started += spent;
        if (process.env.THREADS_BY_ID && before.has(tid) && tid !== String(process.pid) && spent >= 20) byId[tid] = spent;
      }
      if (process.env.THREADS_BY_ID) console.log('older threads', JSON.stringify(byId));
      await after.flush();
      // The floor under the row: the switched files' parse alone on new threads (as the bench's row beside it).
      const floorPool = createTagsPool({ queriesDir: path.join(build, 'queries'), threads: Number(process.env.THREADS ?? 2) });
      const floorStarted = performance.now();
      await floorPool.parse(switched.map((file) => ({ path: file, absPath: path.join(clone, file) })));
      const parseAloneMs = Math.round(performance.now() - floorStarted);
      const text = createHash('sha1').update(after.text.replaceAll(mark, 'X')).digest('hex').slice(0, 12);
      console.log(JSON.stringify({ build, round, wallMs: Math.round(wallMs), parseAloneMs, cpuMs: Math.round((user + system) / 1000), threads, text }));
    } finally {
      await Promise.all(switched.map((file, i) => writeFile(path.join(clone, file), originals[i] ?? '')));
    }
  }
  await rm(scratch, { recursive: true, force: true });
}
encoder.free();
