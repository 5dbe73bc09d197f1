// Repo-map benchmark: cold, warm and one-touched-file map times on real npm code and a generated
// large repository, next to `ctags -R` on the same tree; prints a table, writes JSON.

import { execFile } from 'node:child_process';
import { appendFile, cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { get_encoding } from 'tiktoken';
import { createTagExtractor, findQueriesDir } from '../src/repomap/extract-tags.js';
import { createGrammarLoader } from '../src/platform/tree-sitter.js';
import { createRepoMapPort } from '../src/cli/repo-map-adapter.js';
import { RequestListing } from '../src/git/repo-listing.js';
import type { RepoMapStats } from '../src/repomap/repo-map.js';
import { builtPaths, median, runNode } from './measure.js';
import { listMapFiles } from '../src/repomap/list-files.js';
import { mapStorePath } from '../src/repomap/map-store.js';
import { rankStorePath } from '../src/repomap/rank-store.js';
import { tagCachePath } from '../src/repomap/tag-cache.js';
import { createTagsPool, defaultTagThreads, languagesOf } from '../src/repomap/tags-pool.js';
import { ensureGitRepo, generateTree, polyglotTree, realPythonTree, threeRenderersTree, type RealTree } from './repomap-trees.js';

const run = promisify(execFile);

export interface RepoMapBenchOptions {
  /** The tandem package folder: holds queries/ and the ignored .bench-cache/. */
  readonly packageRoot: string;
  /** Fetch and measure the real trees (npm registry); off in --quick. */
  readonly realTrees?: boolean;
  readonly generatedFiles?: number;
  readonly generatedMegabytes?: number;
  readonly budget?: number;
  readonly threads?: number;
  /** Rounds per tree; each reported time is the median (default 3). */
  readonly rounds?: number;
  readonly log?: (line: string) => void;
}

export interface TreeResult {
  readonly tree: string;
  /** real: fetched code; generated: the synthetic large tree. */
  readonly origin: 'real' | 'generated';
  readonly role?: 'large' | 'small';
  readonly files: number;
  readonly megabytes: number;
  readonly tags: number;
  readonly coldMs: number;
  readonly warmMs: number;
  readonly touchedMs: number;
  /**
   * One file touched with a new reference (a call of a name another file defines): the graph changes,
   * so no kept ranking applies (touchedMs: a change that moves no reference, ranks kept on disk apply).
   */
  readonly touchedRefsMs?: number;
  /** The touched file's own parse, as a fresh process pays it: grammar load, query compile, parse. */
  readonly ownParseMs: number;
  readonly ctagsMs: number;
  readonly peakRssMb: number;
  readonly filesPerSecond: number;
  readonly megabytesPerSecond: number;
  readonly mapTokens: number;
  /** Each time is the median of this many rounds (cold, warm, touched, ctags in turn). */
  readonly rounds: number;
  /** The large real tree only: every listed file read, parsed and queried on this one thread (the cold map's floor). */
  readonly oneThreadMs?: number;
  /** Within one process that built a map before: one file touched, then the map again (incremental ranking). */
  readonly touchedSameProcessMs?: number;
  /** Within one process that built a map before (tag cache warm): a map for a new set of chat files (after /add). */
  readonly newChatWarmMs?: number;
  /** Within one process that built a map before: the same chat files at a new budget. */
  readonly newBudgetWarmMs?: number;
  /**
   * The large real tree only, with the user's shared tag cache: a second clone's first map after the
   * first clone was mapped (its own caches empty), and then a branch switch changing every tenth file.
   */
  readonly secondCloneMs?: number;
  readonly branchSwitchMs?: number;
  readonly branchSwitchFiles?: number;
  /**
   * The switched files' tags alone, right after the switch: read, parsed and queried on as many new
   * parser threads as the map uses, nothing listed, looked up or ranked. What the branch switch's
   * map cannot go below in a new process, whatever it does around the parse.
   */
  readonly switchedParseMs?: number;
}

export interface RepoMapBenchReport {
  readonly node: string;
  readonly cpus: number;
  readonly threads: number;
  readonly results: readonly TreeResult[];
}

async function ensureCtags(log: (line: string) => void): Promise<void> {
  const found = await run('ctags', ['--version']).then(() => true, () => false);
  if (found) return;
  log('ctags missing: installing universal-ctags with apt-get');
  await run('apt-get', ['install', '-y', 'universal-ctags'], { maxBuffer: 64 * 1024 * 1024 });
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/**
 * One file's tags in a fresh process, as the touched-file run pays them: tree-sitter init, grammar
 * load, query compile and the parse, timed inside the child (Node's own start-up excluded).
 */
async function freshParseMs(file: string, queriesDir: string): Promise<number> {
  // The built modules, also when the bench itself runs from sources (tests build first).
  const dist = path.join(path.dirname(findQueriesDir(import.meta.url)), 'dist', 'src');
  const loader = pathToFileURL(path.join(dist, 'platform', 'tree-sitter.js')).href;
  const extractor = pathToFileURL(path.join(dist, 'repomap', 'extract-tags.js')).href;
  const script = [
    `const { createGrammarLoader } = await import(${JSON.stringify(loader)});`,
    `const { createTagExtractor } = await import(${JSON.stringify(extractor)});`,
    `const { readFileSync } = await import('node:fs');`,
    'const started = performance.now();',
    `const tags = await createTagExtractor(createGrammarLoader(), ${JSON.stringify(queriesDir)}).extract(${JSON.stringify(file)}, readFileSync(${JSON.stringify(file)}, 'utf8'));`,
    'process.stdout.write(String(performance.now() - started));',
  ].join('\n');
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return Number(stdout);
}

/**
 * Peak RSS of a cold map in a fresh process, as a user's tandem pays it: the CLI's adapter with
 * o200k token counting, the repository's caches and the user's tag cache empty. (Measured in this
 * process, the figure would carry the bench's own tokenizer and the garbage of the trees before.)
 * The child runs a script file under the RSS probe (the process's own VmHWM): getrusage's maxRSS of
 * a child carries this big process's size at the fork, and under `--input-type=module -e` the parser
 * threads, which inherit that flag, fail to start, so every file was parsed on the main thread.
 */
async function freshColdMapPeakRssMb(tree: string, packageRoot: string, threads: number, chatFile: string): Promise<number> {
  const dist = path.join(path.dirname(findQueriesDir(import.meta.url)), 'dist', 'src');
  const adapter = pathToFileURL(path.join(dist, 'cli', 'repo-map-adapter.js')).href;
  // Inside the package folder, so the script finds tiktoken as the bench does.
  const scratch = await mkdtemp(path.join(packageRoot, '.bench-cache', 'fresh-cold-map-'));
  const tagCacheDir = path.join(scratch, 'tag-cache');
  await rm(tagCachePath(tree), { force: true });
  await rm(mapStorePath(tree), { force: true });
  await rm(rankStorePath(tree), { force: true });
  const script = [
    `const { createRepoMapPort } = await import(${JSON.stringify(adapter)});`,
    `const { get_encoding } = await import('tiktoken');`,
    `const encoder = get_encoding('o200k_base');`,
    `const port = createRepoMapPort({ root: ${JSON.stringify(tree)}, packageRoot: ${JSON.stringify(packageRoot)}, threads: ${threads},`,
    `  tokens: { count: (text) => encoder.encode_ordinary(text).length }, tokenizer: () => 'o200k_base', refreshMode: 'always', emit: () => {}, tagCacheDir: ${JSON.stringify(tagCacheDir)} });`,
    `await port.get({ chatFiles: [${JSON.stringify(chatFile)}], readOnlyFiles: [], requestText: '', budget: 1024 });`,
    'await port.flush();',
  ].join('\n');
  try {
    const file = path.join(scratch, 'cold-map.mjs');
    await writeFile(file, script);
    const child = await runNode([file], { cwd: path.dirname(findQueriesDir(import.meta.url)), env: childEnv(), rssProbe: builtPaths(packageRoot).rssProbe });
    if (child.code !== 0 || !Number.isFinite(child.peakRssMb)) throw new Error(`the fresh cold map failed (${child.code}): ${child.stderr.slice(-400)}`);
    return child.peakRssMb;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** This process's environment as a child's whole environment (runNode inherits nothing). */
function childEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * Every file's tags on this one thread (read, parse, query), nothing else: what the cold map's
 * parser threads must do between them, so its floor on two perfectly scaling cores is half of this.
 */
async function oneThreadTagsMs(tree: string, files: readonly string[], queriesDir: string): Promise<number> {
  const extractor = createTagExtractor(createGrammarLoader(), queriesDir);
  await extractor.prepare(languagesOf(files));
  const started = performance.now();
  for (const file of files) await extractor.extract(file, readFileSync(path.join(tree, file), 'utf8'));
  return performance.now() - started;
}

async function totalBytes(tree: string, files: readonly string[]): Promise<number> {
  let sum = 0;
  for (const file of files) sum += (await stat(path.join(tree, file))).size;
  return sum;
}

/**
 * One map as a fresh tandem process builds it: the CLI's own adapter (list, stored maps, tag cache,
 * tag, rank, fit, render). `withListing`: from the request's git listing, as the CLI lists a repository.
 */
async function buildMap(tree: string, packageRoot: string, threads: number, chatFile: string, countTokens: (text: string) => number, tagCacheDir: string, withListing = false) {
  const listing = withListing ? new RequestListing(tree) : undefined;
  const port = createRepoMapPort({
    root: tree, packageRoot, threads, tokens: { count: countTokens }, tokenizer: () => 'o200k_base', refreshMode: 'always', emit: () => {}, tagCacheDir,
    ...(listing ? { listFiles: () => listing.files(), cleanBlobs: () => listing.cleanBlobs() } : {}),
  });
  const text = await port.get({ chatFiles: [chatFile], readOnlyFiles: [], requestText: '', budget: 1024 });
  return { text, stats: port.lastStats(), flush: () => port.flush() };
}

/**
 * A line for the touched file that calls a name another file of its language defines, and it does
 * not: appended, it adds edges to the file graph.
 */
async function referenceLine(tree: string, files: readonly string[], touched: string, queriesDir: string): Promise<string> {
  const extension = path.extname(touched);
  const extractor = createTagExtractor(createGrammarLoader(), queriesDir);
  const own = new Set((await extractor.extract(touched, readFileSync(touched, 'utf8'))).map((tag) => tag.name));
  // Files of the touched file's language first; any other file should none of them define a name.
  const candidates = [...files.filter((file) => path.extname(file) === extension), ...files.filter((file) => path.extname(file) !== extension)];
  for (const file of candidates.slice(0, 200)) {
    const full = path.join(tree, file);
    if (full === touched) continue;
    const defined = (await extractor.extract(full, readFileSync(full, 'utf8'))).find((tag) => tag.role === 'def' && /^[A-Za-z_]\w{3,}$/.test(tag.name) && !own.has(tag.name));
    if (defined !== undefined) return `\n${defined.name}()\n`;
  }
  return '\n';
}

/** The budget of the "new budget" row: small, so the fit has to search. */
const NEW_BUDGET = 256;

/**
 * One long-lived process (a chat): a map for the first chat file, then timed in turn a map for a new
 * chat-file set, a map at a new budget, and a map after one file is touched. Its first map is built
 * with no map or ranking kept on disk, so it ranks (a map shown from disk ranks nothing).
 */
async function sameProcessRound(tree: string, packageRoot: string, threads: number, files: readonly string[], touched: string, countTokens: (text: string) => number, tagCacheDir: string) {
  await rm(mapStorePath(tree), { force: true });
  // Nor ranks kept on disk: its first map builds the graph, which the later maps reuse.
  await rm(rankStorePath(tree), { force: true });
  const port = createRepoMapPort({
    root: tree, packageRoot, threads, tokens: { count: countTokens }, tokenizer: () => 'o200k_base', refreshMode: 'always', emit: () => {}, tagCacheDir,
  });
  const ask = (chatFiles: string[], budget = 1024) => port.get({ chatFiles, readOnlyFiles: [], requestText: '', budget });
  const first = files[0] ?? '';
  const other = files[Math.floor(files.length / 3)] ?? first;
  await ask([first]);
  const newChat = await timed(() => ask([first, other]));
  const newBudget = await timed(() => ask([first, other], NEW_BUDGET));
  const original = await readFile(touched);
  await appendFile(touched, '\n');
  const after = await timed(() => ask([first, other], NEW_BUDGET));
  await writeFile(touched, original);
  await port.flush();
  return { newChat: newChat.ms, newBudget: newBudget.ms, touched: after.ms };
}

/**
 * A copy of `tree` beside it (made once), its own git work tree with every file committed, as a
 * clone's are: the second clone.
 */
async function cloneOf(tree: string): Promise<string> {
  const clone = `${tree}-second-clone`;
  if (!existsSync(path.join(clone, '.complete-clone'))) {
    await rm(clone, { recursive: true, force: true });
    await cp(tree, clone, { recursive: true, filter: (source) => !source.includes(`${path.sep}.tandem`) && !source.endsWith(`${path.sep}.git`) });
    await writeFile(path.join(clone, '.complete-clone'), '');
  }
  await ensureGitRepo(clone);
  const committed = await run('git', ['rev-parse', '--verify', '-q', 'HEAD'], { cwd: clone }).then(() => true, () => false);
  if (!committed) {
    await appendFile(path.join(clone, '.git', 'info', 'exclude'), '\n/.tandem/\n');
    await run('git', ['add', '-A'], { cwd: clone, maxBuffer: 64 * 1024 * 1024 });
    await run('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-q', '--no-verify', '-m', 'second clone'], { cwd: clone });
  }
  return clone;
}

async function benchTree({ label, path: tree, role: treeRole }: RealTree, origin: TreeResult['origin'], options: Required<Pick<RepoMapBenchOptions, 'threads' | 'packageRoot' | 'rounds'>>, queriesDir: string, countTokens: (t: string) => number): Promise<TreeResult> {
  await ensureGitRepo(tree);
  // Listed once outside the timings, for the counts and to pick the chat file and the touched file.
  const files = await listMapFiles(tree);
  const chatFile = files[0] ?? '';
  // The user's shared tag cache, emptied at each round's start (so each cold map is cold).
  const tagCacheDir = path.join(options.packageRoot, '.bench-cache', `tag-cache-${process.pid}`);
  const buildIn = (root: string, withListing = false): ReturnType<typeof buildMap> => buildMap(root, options.packageRoot, options.threads, chatFile, countTokens, tagCacheDir, withListing);
  const build = (): ReturnType<typeof buildMap> => buildIn(tree);
  const clone = treeRole === 'large' ? await cloneOf(tree) : undefined;
  // A branch switch: every tenth listed file gets contents no checkout had before.
  const switched = files.filter((_, i) => i % 10 === 5);
  const touched = path.join(tree, files[Math.floor(files.length / 2)] ?? '');
  const original = await readFile(touched);
  const newReference = await referenceLine(tree, files, touched, queriesDir);
  const tagsOut = path.join(os.tmpdir(), `tandem-bench-ctags-${process.pid}`);
  // Rounds of cold, warm, touched and ctags one after another, so each figure's median and its
  // reference's come from the same stretch of time on a shared machine.
  const rounds: { cold: number; warm: number; touched: number; touchedRefs: number; ctags: number; sameTouched: number; newChat: number; newBudget: number; secondClone?: number; branchSwitch?: number; switchedParse?: number }[] = [];
  let stats: RepoMapStats | undefined;
  let peakRssMb = 0;
  for (let round = 0; round < options.rounds; round++) {
    await rm(tagCachePath(tree), { force: true });
    await rm(mapStorePath(tree), { force: true });
    await rm(rankStorePath(tree), { force: true });
    await rm(tagCacheDir, { recursive: true, force: true });
    // Each build writes its caches after its map is done; the next build (a new process) needs them.
    const cold = await timed(build);
    await cold.value.flush();
    stats = cold.value.stats;
    // The process's peak so far, read after the first cold build only: later rounds add the garbage of earlier ones.
    if (round === 0) peakRssMb = process.resourceUsage().maxRSS / 1024;
    const warm = await timed(build);
    await warm.value.flush();
    await appendFile(touched, '\n');
    const after = await timed(build);
    await after.value.flush();
    await appendFile(touched, newReference);
    const afterRefs = await timed(build);
    await afterRefs.value.flush();
    await writeFile(touched, original);
    const same = await sameProcessRound(tree, options.packageRoot, options.threads, files, touched, countTokens, tagCacheDir);
    const ctags = await timed(() => run('ctags', ['-R', '-f', tagsOut, '.'], { cwd: tree, maxBuffer: 64 * 1024 * 1024 }));
    await rm(tagsOut, { force: true });
    const second = clone === undefined ? undefined : await secondCloneRound(clone, switched, round, buildIn, options.packageRoot, options.threads);
    rounds.push({ cold: cold.ms, warm: warm.ms, touched: after.ms, touchedRefs: afterRefs.ms, ctags: ctags.ms, sameTouched: same.touched, newChat: same.newChat, newBudget: same.newBudget, ...second });
  }
  await rm(tagCacheDir, { recursive: true, force: true });
  const mid = (pick: (r: (typeof rounds)[number]) => number): number => median(rounds.map(pick));
  const coldMs = mid((r) => r.cold);
  const ownParse = { ms: await freshParseMs(touched, queriesDir) };
  const oneThreadMs = treeRole === 'large' ? await oneThreadTagsMs(tree, files, queriesDir) : undefined;
  if (treeRole === 'large') peakRssMb = await freshColdMapPeakRssMb(tree, options.packageRoot, options.threads, chatFile);

  const megabytes = (await totalBytes(tree, files)) / (1024 * 1024);
  return {
    tree: label,
    origin,
    role: treeRole,
    files: files.length,
    megabytes,
    tags: stats?.tags ?? 0,
    coldMs,
    warmMs: mid((r) => r.warm),
    touchedMs: mid((r) => r.touched),
    touchedRefsMs: mid((r) => r.touchedRefs),
    ownParseMs: ownParse.ms,
    ctagsMs: mid((r) => r.ctags),
    peakRssMb,
    filesPerSecond: files.length / (coldMs / 1000),
    megabytesPerSecond: megabytes / (coldMs / 1000),
    mapTokens: stats?.tokens ?? 0,
    rounds: rounds.length,
    ...(oneThreadMs === undefined ? {} : { oneThreadMs }),
    touchedSameProcessMs: mid((r) => r.sameTouched),
    newChatWarmMs: mid((r) => r.newChat),
    newBudgetWarmMs: mid((r) => r.newBudget),
    ...(clone === undefined ? {} : {
      secondCloneMs: mid((r) => r.secondClone ?? 0), branchSwitchMs: mid((r) => r.branchSwitch ?? 0), branchSwitchFiles: switched.length,
      switchedParseMs: mid((r) => r.switchedParse ?? 0),
    }),
  };
}

/**
 * The second clone's first map (its own caches empty, the shared one filled by the first clone's
 * cold map), then a branch switch: `switched` files get new contents, mapped, and put back. The
 * clone is committed and listed as the CLI lists it (the request's git listing).
 */
async function secondCloneRound(
  clone: string, switched: readonly string[], round: number, buildIn: (root: string, withListing: boolean) => ReturnType<typeof buildMap>,
  packageRoot: string, threads: number,
): Promise<{ secondClone: number; branchSwitch: number; switchedParse: number }> {
  await rm(tagCachePath(clone), { force: true });
  await rm(mapStorePath(clone), { force: true });
  await rm(rankStorePath(clone), { force: true });
  const second = await timed(() => buildIn(clone, true));
  await second.value.flush();
  const originals = await Promise.all(switched.map((file) => readFile(path.join(clone, file))));
  await Promise.all(switched.map((file) => appendFile(path.join(clone, file), `\n# branch ${process.pid}-${round}\n`)));
  // A real switch changes code, so the second clone's kept ranking would not apply; a comment changes
  // no reference, so it would. Removed, so the row goes on measuring a switch's ranking.
  await rm(rankStorePath(clone), { force: true });
  try {
    const afterSwitch = await timed(() => buildIn(clone, true));
    await afterSwitch.value.flush();
    const pool = createTagsPool({ queriesDir: path.join(packageRoot, 'queries'), threads });
    const switchedParse = await timed(() => pool.parse(switched.map((file) => ({ path: file, absPath: path.join(clone, file) }))));
    if (switchedParse.value.some((outcome) => !outcome.ok)) throw new Error('a switched file failed to parse');
    return { secondClone: second.ms, branchSwitch: afterSwitch.ms, switchedParse: switchedParse.ms };
  } finally {
    await Promise.all(switched.map((file, i) => writeFile(path.join(clone, file), originals[i] ?? '')));
  }
}

export function formatReport(report: RepoMapBenchReport): string {
  const header = 'tree                          files     MB    tags  cold ms  warm ms  touch ms  refs ms  1 parse  ctags ms  cold/ctags  warm/ctags  touch/ctags  files/s   MB/s  peak RSS MB';
  const rows = report.results.map((r) =>
    [
      r.tree.padEnd(28).slice(0, 28),
      String(r.files).padStart(7),
      r.megabytes.toFixed(1).padStart(6),
      String(r.tags).padStart(7),
      r.coldMs.toFixed(0).padStart(8),
      r.warmMs.toFixed(0).padStart(8),
      r.touchedMs.toFixed(0).padStart(9),
      (r.touchedRefsMs ?? 0).toFixed(0).padStart(8),
      r.ownParseMs.toFixed(0).padStart(8),
      r.ctagsMs.toFixed(0).padStart(9),
      (r.coldMs / r.ctagsMs).toFixed(2).padStart(11),
      (r.warmMs / r.ctagsMs).toFixed(2).padStart(11),
      (r.touchedMs / r.ctagsMs).toFixed(2).padStart(12),
      r.filesPerSecond.toFixed(0).padStart(8),
      r.megabytesPerSecond.toFixed(1).padStart(6),
      r.peakRssMb.toFixed(0).padStart(12),
    ].join(' '),
  );
  return [`node ${report.node}, ${report.cpus} cpus, ${report.threads} tag threads`, header, ...rows].join('\n');
}

export async function runRepoMapBench(options: RepoMapBenchOptions): Promise<RepoMapBenchReport> {
  const log = options.log ?? (() => {});
  const cacheDir = path.join(options.packageRoot, '.bench-cache');
  await mkdir(cacheDir, { recursive: true });
  await ensureCtags(log);
  const threads = options.threads ?? defaultTagThreads(os.availableParallelism());
  const queriesDir = path.join(options.packageRoot, 'queries');
  const trees: Array<{ tree: RealTree; origin: TreeResult['origin'] }> = [];
  if (options.realTrees ?? true) {
    log('fetching real code from the npm registry');
    trees.push({ tree: await threeRenderersTree(cacheDir), origin: 'real' });
    trees.push({ tree: await realPythonTree(cacheDir), origin: 'real' });
    trees.push({ tree: await polyglotTree(cacheDir), origin: 'real' });
  }
  log('generating the large repository');
  const generated = await generateTree(cacheDir, { files: options.generatedFiles ?? 1600, megabytes: options.generatedMegabytes ?? 30 });
  trees.push({ tree: { label: path.basename(generated).replace(/^generated-v\d+-(\d+)-.*$/, 'generated'), path: generated }, origin: 'generated' });

  const encoder = get_encoding('o200k_base');
  const results: TreeResult[] = [];
  try {
    const countTokens = (text: string): number => encoder.encode_ordinary(text).length;
    for (const { tree, origin } of trees) {
      log(`measuring ${tree.label}`);
      results.push(await benchTree(tree, origin, { threads, packageRoot: options.packageRoot, rounds: options.rounds ?? 3 }, queriesDir, countTokens));
    }
  } finally {
    encoder.free();
  }
  const report: RepoMapBenchReport = { node: process.version, cpus: os.availableParallelism(), threads, results };
  await writeFile(path.join(cacheDir, 'repomap.json'), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

// Run directly (node dist/bench/repomap.js): measure and print the table.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const packageRoot = path.dirname(findQueriesDir(import.meta.url));
  const report = await runRepoMapBench({ packageRoot, log: (line) => console.error(line) });
  console.log(formatReport(report));
}
