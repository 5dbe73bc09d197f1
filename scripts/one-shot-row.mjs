// Reproduces the bench's "request, small repo" row for one or more built tandem checkouts, interleaved:
// a whole one-shot request (edit, commit message, commit) against the fake server on a two-file repository.
// Usage: node scripts/one-shot-row.mjs <rounds> <checkout>[::--flag ...] ...  (prints each one's median wall ms)
// Flags after `::` go to that variant's requests only (e.g. `.::--no-auto-lint` to see what the check costs).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [roundsText, ...checkouts] = process.argv.slice(2);
const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { startRequestRunner, smallRepo } = await import(pathToFileURL(path.join(here, 'dist', 'bench', 'one-shot.js')).href);
const { runNode, median } = await import(pathToFileURL(path.join(here, 'dist', 'bench', 'measure.js')).href);
const runners = [];
for (const variant of checkouts) {
  const [checkout, flags = ''] = variant.split('::');
  runners.push(await startRequestRunner({ packageRoot: path.resolve(checkout), cacheDir: '/tmp', quick: false, pathEnv: process.env.PATH, log: () => {} }, flags.split(' ').filter(Boolean)));
}
const repo = await smallRepo();
const times = checkouts.map(() => []);
const nodeTimes = [];
for (const runner of runners) { await repo.reset(); await runner.request(repo); }
for (let round = 0; round < Number(roundsText); round++) {
  nodeTimes.push((await runNode(['-e', '0'], { env: { PATH: process.env.PATH } })).ms);
  for (const [i, runner] of runners.entries()) {
    await repo.reset();
    times[i].push((await runner.request(repo)).ms);
  }
}
console.log(`node -e 0: ${median(nodeTimes).toFixed(1)} ms`);
for (const [i, checkout] of checkouts.entries()) console.log(`${checkout}: ${median(times[i]).toFixed(1)} ms (${(median(times[i]) / median(nodeTimes)).toFixed(2)}x)  [${times[i].map((t) => t.toFixed(0)).join(' ')}]`);
for (const runner of runners) await runner.close();
process.exit(0);
