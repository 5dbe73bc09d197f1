// The before/after mode's runs: the interleaving, the state cleared between runs, the bench.json read
// back, and the baseline's worktree (made, linked, built, removed) on a small fake "tandem" repository
// whose bench is a script writing a bench.json: no real section runs here.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clearRepoState, runAgainstBench, runInterleaved, sectionFromReport, type Side } from '../../bench/ab-run.js';
import { BaselineError, prepareBaseline } from '../../bench/against.js';
import { runInGroup } from '../../bench/child-group.js';
import type { SectionResult } from '../../bench/measure.js';
import { git, gitEnv, gitRepo, tempDir, writeFiles } from '../support/temp-repo.js';

describe('interleaving', () => {
  it('runs each section before, after, before, after, clearing state before every run', async () => {
    const calls: string[] = [];
    const rounds = await runInterleaved({
      sections: ['one', 'two'],
      rounds: 2,
      beforeEach: async () => void calls.push('clear'),
      run: async (side: Side, name: string): Promise<SectionResult> => {
        calls.push(`${name}:${side}`);
        if (name === 'two' && side === 'before') throw new Error('no such thing\nmore detail');
        return { name, rows: [{ metric: 'm', value: calls.length, unit: 'ms' }], notes: [] };
      },
      log: () => {},
    });
    expect(calls).toEqual(['clear', 'one:before', 'clear', 'one:after', 'clear', 'one:before', 'clear', 'one:after',
      'clear', 'two:before', 'clear', 'two:after', 'clear', 'two:before', 'clear', 'two:after']);
    expect(rounds.map((s) => [s.name, s.before.length, s.after.length])).toEqual([['one', 2, 2], ['two', 2, 2]]);
    expect(rounds[1]!.before[0]).toEqual({ name: 'two', rows: [], notes: [], error: 'no such thing' });
  });

  it('stops when aborted instead of recording a failure', async () => {
    const controller = new AbortController();
    const run = async (): Promise<SectionResult> => {
      controller.abort();
      throw new Error('killed');
    };
    await expect(runInterleaved({ sections: ['one'], rounds: 3, beforeEach: async () => {}, run, log: () => {}, signal: controller.signal }))
      .rejects.toThrow(/abort/i);
  });
});

describe('a child in a group of its own', () => {
  it('when stopped, stops what the child started too, and settles only once they are gone', async () => {
    const controller = new AbortController();
    let grandchild = 0;
    const run = runInGroup('sh', ['-c', 'sleep 30 & echo $! >&2; wait'], {
      cwd: tempDir('tandem-ab-group-'), env: gitEnv(), signal: controller.signal,
      onStderrLine: (line) => {
        grandchild = Number(line);
        controller.abort();
      },
    });
    await expect(run).rejects.toThrow(/abort/i);
    expect(grandchild).toBeGreaterThan(0);
    // Gone, or dead and waiting for a parent to reap it (this container's init may not).
    const state = existsSync(`/proc/${grandchild}/stat`) ? readFileSync(`/proc/${grandchild}/stat`, 'utf8').split(') ')[1]?.[0] : 'gone';
    expect(['gone', 'Z']).toContain(state);
  });

  it('reports the exit code, stdout and the end of stderr', async () => {
    const result = await runInGroup('sh', ['-c', 'echo out; echo err >&2; exit 3'], { cwd: tempDir('tandem-ab-group-'), env: gitEnv(), stdout: true });
    expect(result).toEqual({ code: 3, stdout: 'out\n', stderrTail: 'err\n' });
  });
});

describe('state left in the shared trees', () => {
  it('removes every .tandem folder, not entering .git and not following links', async () => {
    const cache = tempDir('tandem-ab-cache-');
    const outside = tempDir('tandem-ab-outside-');
    writeFiles(cache, { 'one/.tandem/maps.cache': 'x', 'npm/pkg/src/deep/.tandem/tags.cache': 'x', 'one/.git/.tandem/keep': 'x', 'one/file.py': 'x' });
    writeFiles(outside, { '.tandem/keep': 'x' });
    symlinkSync(outside, path.join(cache, 'link'));
    expect(await clearRepoState(cache)).toBe(2);
    expect(existsSync(path.join(cache, 'one', '.tandem'))).toBe(false);
    expect(existsSync(path.join(cache, 'npm/pkg/src/deep/.tandem'))).toBe(false);
    expect(existsSync(path.join(cache, 'one/.git/.tandem/keep'))).toBe(true);
    expect(existsSync(path.join(cache, 'one/file.py'))).toBe(true);
    expect(existsSync(path.join(outside, '.tandem/keep'))).toBe(true);
    expect(await clearRepoState(path.join(cache, 'missing'))).toBe(0);
  });
});

describe('reading a build\'s bench.json', () => {
  // The shape main's bench writes (bench/report.ts), with a row a newer build would not write.
  const report = {
    node: 'v20', platform: 'linux x64', cpus: 2, quick: false, startedAt: '', seconds: 3,
    sections: [
      { name: 'startup', rows: [{ metric: 'node -e 0', value: 40, unit: 'ms' }, { metric: 'broken', value: 'fast', unit: 'ms' }], notes: ['n', 3], details: { a: 1 } },
      { name: 'edits', rows: [], notes: [], error: 'exploded' },
    ],
  };

  it('takes the section asked for, its well-formed rows, notes, details and error', () => {
    expect(sectionFromReport(JSON.stringify(report), 'startup')).toEqual({ name: 'startup', rows: [{ metric: 'node -e 0', value: 40, unit: 'ms' }], notes: ['n'], details: { a: 1 } });
    expect(sectionFromReport(JSON.stringify(report), 'edits')).toEqual({ name: 'edits', rows: [], notes: [], error: 'exploded' });
    expect(sectionFromReport(JSON.stringify(report), 'memory')).toBeUndefined();
    expect(() => sectionFromReport('{"sections": 3}', 'startup')).toThrow(/no sections/);
  });
});

/**
 * A fake tandem: `npm run build` copies bench.cjs to dist/bench/run.js, which writes the bench.json of
 * the real bench with a time read from speed.txt, whether it found another run's .tandem state in the
 * shared cache, and whether its node_modules is a link. sections.txt lists the sections it knows.
 */
const FAKE_BENCH = `const fs = require('fs');
const path = require('path');
const root = path.resolve(__dirname, '..', '..');
const only = process.argv[process.argv.indexOf('--only') + 1];
if (!fs.readFileSync(path.join(root, 'sections.txt'), 'utf8').trim().split(',').includes(only)) {
  process.stderr.write('bench: unknown section ' + only + '\\n');
  process.exit(2);
}
process.stderr.write('== ' + only + '\\n');
const cache = path.join(root, '.bench-cache');
const state = path.join(cache, 'shared-tree', '.tandem');
const found = fs.existsSync(state);
fs.mkdirSync(state, { recursive: true });
const rows = [
  { metric: 'request (' + Math.round(Math.random() * 100) + ' files)', value: Number(fs.readFileSync(path.join(root, 'speed.txt'), 'utf8')), unit: 'ms' },
  { metric: 'state found', value: found ? 1 : 0, unit: 'runs' },
  { metric: 'node_modules linked', value: fs.lstatSync(path.join(root, 'node_modules')).isSymbolicLink() ? 1 : 0, unit: 'flag' },
];
fs.writeFileSync(path.join(cache, 'bench.json'), JSON.stringify({ sections: [{ name: only, rows, notes: ['fake'] }] }));
`;

function fakeTandem(): { repo: string; worktrees: () => number } {
  const repo = gitRepo({
    'package.json': JSON.stringify({ name: 'tandem', private: true, scripts: { build: 'node build.mjs' } }),
    'package-lock.json': '{"lockfileVersion": 3}\n',
    'build.mjs': "import { cpSync, mkdirSync } from 'node:fs';\nmkdirSync('dist/bench', { recursive: true });\ncpSync('bench.cjs', 'dist/bench/run.js');\n",
    'bench.cjs': FAKE_BENCH,
    'speed.txt': '100',
    'sections.txt': 'alpha',
    '.gitignore': 'node_modules/\n.bench-cache/\ndist/\n',
  });
  git(repo, 'tag', 'old');
  writeFiles(repo, { 'speed.txt': '150', 'sections.txt': 'alpha,beta' });
  git(repo, 'commit', '-q', '-am', 'slower, and a section more');
  writeFiles(repo, { 'build.mjs': 'process.exit(1);\n' });
  git(repo, 'commit', '-q', '-am', 'a build that fails');
  git(repo, 'tag', 'broken');
  git(repo, 'reset', '-q', '--hard', 'HEAD~1');
  mkdirSync(path.join(repo, 'node_modules'));
  mkdirSync(path.join(repo, '.bench-cache'));
  execFileSync('node', ['build.mjs'], { cwd: repo });
  const worktrees = (): number => git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((line) => line.startsWith('worktree ')).length;
  return { repo, worktrees };
}

describe('against a revision', () => {
  it('builds the revision in a worktree sharing the cache, alternates the builds, compares, and removes the worktree', async () => {
    const { repo, worktrees } = fakeTandem();
    const logs: string[] = [];
    const { report, ab } = await runAgainstBench({
      against: 'old', sections: ['alpha', 'beta'], rounds: 2, threshold: 0.1, quick: false,
      packageRoot: repo, cacheDir: path.join(repo, '.bench-cache'), cwd: repo, env: gitEnv(), log: (line) => logs.push(line),
    });
    expect(ab.before).toMatchObject({ label: 'old', commit: git(repo, 'rev-parse', 'old').trim().slice(0, 10) });
    expect(ab.after).toMatchObject({ label: 'this checkout', commit: git(repo, 'rev-parse', '--short', 'HEAD').trim(), root: repo });
    const [alpha, beta] = ab.sections;
    // The time row's text moves from run to run ("(N files)"): still one row.
    expect(alpha!.rows.map((r) => [r.metric.replace(/\d+/, 'N'), r.before, r.after, r.verdict])).toEqual([
      ['request (N files)', [100, 100], [150, 150], 'worse'],
      ['state found', [0, 0], [0, 0], 'not judged'],
      ['node_modules linked', [1, 1], [0, 0], 'not judged'],
    ]);
    expect(beta!.beforeErrors).toEqual([expect.stringMatching(/^no such section in this build/), expect.stringMatching(/^no such section/)]);
    expect(beta!.rows.every((r) => r.verdict === 'new')).toBe(true);
    expect(report.sections.map((s) => [s.name, s.rows[0]!.value, s.notes])).toEqual([['alpha', 150, ['fake']], ['beta', 150, ['fake']]]);
    expect(logs).toContain('  [before] == alpha');
    expect(logs.filter((line) => line.startsWith('== alpha'))).toEqual(['== alpha, round 1 of 2: before', '== alpha, round 1 of 2: after',
      '== alpha, round 2 of 2: before', '== alpha, round 2 of 2: after']);
    expect(existsSync(ab.before.root)).toBe(false);
    expect(worktrees()).toBe(1);
    expect(lstatSync(path.join(repo, 'node_modules')).isDirectory()).toBe(true);
  });

  it('removes the worktree when the build fails, or when stopped', async () => {
    const { repo, worktrees } = fakeTandem();
    const options = { packageRoot: repo, cacheDir: path.join(repo, '.bench-cache'), cwd: repo, env: gitEnv(), log: () => {} };
    await expect(prepareBaseline({ ...options, ref: 'broken' })).rejects.toThrow(BaselineError);
    expect(worktrees()).toBe(1);
    const controller = new AbortController();
    controller.abort();
    await expect(prepareBaseline({ ...options, ref: 'old', signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(worktrees()).toBe(1);
    await expect(prepareBaseline({ ...options, ref: 'no-such-branch' })).rejects.toThrow(/neither a built tandem checkout nor a git revision/);
  });

  it('uses a built checkout given by path as it is, linking the shared cache when it has none', async () => {
    const { repo } = fakeTandem();
    const copy = path.join(tempDir('tandem-ab-copy-'), 'built');
    git(repo, 'worktree', 'add', '-q', '--detach', copy, 'old');
    mkdirSync(path.join(copy, 'node_modules'));
    execFileSync('node', ['build.mjs'], { cwd: copy });
    const cacheDir = path.join(repo, '.bench-cache');
    const baseline = await prepareBaseline({ ref: copy, packageRoot: repo, cacheDir, cwd: repo, env: gitEnv(), log: () => {} });
    expect(baseline.info).toMatchObject({ label: copy, root: copy });
    expect(lstatSync(path.join(copy, '.bench-cache')).isSymbolicLink()).toBe(true);
    await baseline.dispose();
    expect(existsSync(path.join(copy, '.bench-cache'))).toBe(false);
    expect(existsSync(path.join(copy, 'dist', 'bench', 'run.js'))).toBe(true);
    // This checkout against itself: an A/A run, its own cache.
    const self = await prepareBaseline({ ref: '.', packageRoot: repo, cacheDir, cwd: repo, env: gitEnv(), log: () => {} });
    expect(self.cacheDirs).toEqual([cacheDir]);
    await self.dispose();
    expect(readFileSync(path.join(repo, 'speed.txt'), 'utf8')).toBe('150');
    const unbuilt = tempDir('tandem-ab-unbuilt-');
    writeFileSync(path.join(unbuilt, 'package.json'), '{"name": "tandem"}');
    await expect(prepareBaseline({ ref: unbuilt, packageRoot: repo, cacheDir, cwd: repo, env: gitEnv(), log: () => {} })).rejects.toThrow(/build it first/);
  });
});
