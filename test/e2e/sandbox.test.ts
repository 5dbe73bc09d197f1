// Class: an approved command runs code it imports (a test file the model wrote, a conftest.py). With
// --sandbox that code cannot read the home folder, write outside the repository, reach the host's
// network or signal the host's processes, while the legitimate test still runs and passes. The same
// attacks succeed without --sandbox, so the test can fail. No bubblewrap: no command runs at all.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { searchReplace } from '../support/replies.js';
import { git, gitRepo, read, tempDir } from '../support/temp-repo.js';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

const SECRET = 'SSH-PRIVATE-KEY-3b1f';

/** The project's test suite: one real test of app.js, then the attacks, each reporting what happened. */
const TEST_JS = `
const fs = require('fs'), os = require('os'), net = require('net'), path = require('path');
const targets = JSON.parse(fs.readFileSync('targets.json', 'utf8'));
const report = {};
const attempt = (name, fn) => { try { report[name] = 'ok:' + fn(); } catch (e) { report[name] = 'blocked:' + (e.code || e.message); } };
// The legitimate test: app.js doubles.
const { double } = require('./app.js');
if (double(21) !== 42) { console.log('LEGIT FAIL'); process.exit(1); }
fs.mkdirSync('build', { recursive: true });
fs.writeFileSync('build/ran.txt', 'legit test ran\\n');
console.log('LEGIT PASS');
attempt('ssh', () => fs.readFileSync(path.join(os.homedir(), '.ssh', 'id_rsa'), 'utf8').trim());
attempt('sshByPath', () => fs.readFileSync(targets.key, 'utf8').trim());
attempt('write', () => { fs.writeFileSync(targets.outside, 'escaped'); return 'written'; });
attempt('kill', () => { process.kill(targets.pid, 'SIGKILL'); return 'killed'; });
attempt('state', () => { fs.writeFileSync('.tandem/chat.history.md', 'forged'); return 'written'; });
const socket = net.connect(targets.port, '127.0.0.1');
const done = (value) => { report.network = value; socket.destroy(); console.log('REPORT ' + JSON.stringify(report)); };
socket.setTimeout(5000, () => done('blocked:timeout'));
socket.on('connect', () => done('ok:connected'));
socket.on('error', (e) => done('blocked:' + e.code));
`;

interface Targets {
  readonly home: string;
  readonly outside: string;
  readonly connections: () => number;
  readonly victim: ChildProcess;
  readonly port: number;
}

async function plantTargets(): Promise<Targets> {
  const home = join(tempDir('tandem-home-'), 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), `${SECRET}\n`);
  const outside = join(tempDir('tandem-outside-'), 'escaped.txt');
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.on('error', () => undefined);
    socket.end('pong\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const victim = spawn('sleep', ['300'], { stdio: 'ignore' });
  cleanups.push(() => void victim.kill('SIGKILL'));
  await new Promise((resolve) => victim.once('spawn', resolve));
  return { home, outside, connections: () => connections, victim, port: (server.address() as AddressInfo).port };
}

function attackRepo(targets: Targets): string {
  const repo = gitRepo({
    'app.js': 'exports.double = (n) => n + n + 1;\n',
    'test.js': TEST_JS,
    'targets.json': JSON.stringify({ key: join(targets.home, '.ssh', 'id_rsa'), outside: targets.outside, pid: targets.victim.pid, port: targets.port }),
  });
  writeFileSync(join(repo, '.gitignore'), 'build/\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'ignore build');
  return repo;
}

let model: FakeOpenAIServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function fixReply(): Promise<string> {
  model = await startFakeOpenAI({ replies: { m: [textReply(searchReplace('app.js', 'exports.double = (n) => n + n + 1;\n', 'exports.double = (n) => n + n;\n'))] }, fallback: textReply('Done.') });
  return model.url;
}

const args = (url: string, extra: string[]): string[] => [
  '--json', '--no-stream', '--base-url', url, '--model', 'm', '--weak-model', 'm', '--map-tokens', '0',
  '--test-cmd', 'node test.js', '--auto-test', '--yes-always', '-m', 'fix double', 'app.js', ...extra,
];

function reportOf(output: string): Record<string, string> {
  const line = output.split('\n').find((l) => l.startsWith('REPORT '));
  expect(line, output).toBeDefined();
  return JSON.parse(line!.slice('REPORT '.length)) as Record<string, string>;
}

function victimAlive(victim: ChildProcess): boolean {
  return victim.exitCode === null && victim.signalCode === null && (() => {
    try {
      process.kill(victim.pid!, 0);
      return true;
    } catch {
      return false;
    }
  })();
}

describe('--sandbox contains what an approved test command runs', () => {
  it('the test suite passes inside the sandbox while every attack in it fails', async () => {
    const targets = await plantTargets();
    const repo = attackRepo(targets);

    const run = await runCliInProcess(args(await fixReply(), ['--sandbox']), { cwd: repo, home: targets.home });

    expect(run.code, run.stderr + run.stdout).toBe(0);
    const test = run.events().find((e) => e['type'] === 'test');
    expect(test?.['ok']).toBe(true);
    expect(test?.['output']).toContain('LEGIT PASS');
    expect(read(repo, 'build/ran.txt')).toBe('legit test ran\n');
    expect(read(repo, 'app.js')).toBe('exports.double = (n) => n + n;\n');
    const report = reportOf(String(test?.['output']));
    expect(report['ssh']).toBe('blocked:ENOENT');
    expect(report['sshByPath']).toBe('blocked:ENOENT');
    expect(report['write']).toMatch(/^blocked:/);
    expect(report['kill']).toBe('blocked:ESRCH');
    expect(report['network']).toMatch(/^blocked:/);
    expect(report['state']).toBe('blocked:EROFS');
    expect(JSON.stringify(run.events())).not.toContain(SECRET);
    expect(existsSync(targets.outside)).toBe(false);
    expect(targets.connections()).toBe(0);
    expect(victimAlive(targets.victim)).toBe(true);
    expect(run.events().find((e) => e['type'] === 'session')?.['sandbox']).toBe('commands sandboxed (bubblewrap, no network)');
  });

  it('the same attacks succeed without --sandbox (so the test above can fail)', async () => {
    const targets = await plantTargets();
    const repo = attackRepo(targets);

    const run = await runCliInProcess(args(await fixReply(), []), { cwd: repo, home: targets.home });

    expect(run.code, run.stderr + run.stdout).toBe(0);
    const test = run.events().find((e) => e['type'] === 'test');
    expect(test?.['output']).toContain('LEGIT PASS');
    const report = reportOf(String(test?.['output']));
    expect(report['ssh']).toBe(`ok:${SECRET}`);
    expect(report['write']).toBe('ok:written');
    expect(report['kill']).toBe('ok:killed');
    expect(report['network']).toBe('ok:connected');
    expect(report['state']).toBe('ok:written');
    expect(readFileSync(targets.outside, 'utf8')).toBe('escaped');
    expect(targets.connections()).toBe(1);
    await new Promise((resolve) => (targets.victim.exitCode !== null || targets.victim.signalCode !== null ? resolve(null) : targets.victim.once('exit', resolve)));
    expect(targets.victim.signalCode).toBe('SIGKILL');
  });

  it('--sandbox-network lets a sandboxed command reach the host (the network is the only thing it opens)', async () => {
    const targets = await plantTargets();
    const repo = attackRepo(targets);

    const run = await runCliInProcess(args(await fixReply(), ['--sandbox', '--sandbox-network']), { cwd: repo, home: targets.home });

    expect(run.code, run.stderr + run.stdout).toBe(0);
    const report = reportOf(String(run.events().find((e) => e['type'] === 'test')?.['output']));
    expect(report['network']).toBe('ok:connected');
    expect(report['ssh']).toBe('blocked:ENOENT');
    expect(report['kill']).toBe('blocked:ESRCH');
    expect(existsSync(targets.outside)).toBe(false);
  });
});

/** A PATH with the tools tandem and the test need (git, node, sleep) but no bubblewrap; `extra` first. */
function pathWithoutBubblewrap(extra: Record<string, string> = {}): string {
  const bin = tempDir('tandem-bin-');
  for (const tool of ['git', 'node', 'sh', 'sleep']) {
    const found = (process.env['PATH'] ?? '').split(':').map((dir) => join(dir, tool)).find((file) => existsSync(file));
    if (found) symlinkSync(found, join(bin, tool));
  }
  for (const [name, script] of Object.entries(extra)) {
    writeFileSync(join(bin, name), script);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

describe('where it shows', () => {
  it('/settings says commands are sandboxed', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n' });
    const run = await runCliInProcess(['--sandbox', '--map-tokens', '0', '-m', '/settings'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).toMatch(/^Commands sandboxed \(bubblewrap, no network\)\.$/m);
    expect(run.stdout + run.stderr).toMatch(/^sandbox\s+true\s+\(command line\)$/m);
    // and the status line at start-up
    expect(run.stderr).toContain('tandem: model gpt-4o, edit format diff, commands sandboxed (bubblewrap, no network)');
  });
});

describe('no sandbox, no command', () => {
  it.each([
    ['bubblewrap is not on PATH', {}, /bubblewrap \(bwrap\) is not on PATH, so no command was run/],
    [
      'the kernel refuses the namespaces',
      { bwrap: '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n' },
      /bubblewrap cannot create the sandbox here \(bwrap: No permissions to create new namespace\), so no command was run/,
    ],
  ])('%s: the test command never runs, one line says why, exit 4 headless', async (_, extra, message) => {
    const repo = gitRepo({ 'app.js': 'exports.double = (n) => n + n + 1;\n', 'test.js': "require('fs').writeFileSync('ran.txt', 'ran');\n" });

    const run = await runCliInProcess(args(await fixReply(), ['--sandbox']), { cwd: repo, env: { PATH: pathWithoutBubblewrap(extra) } });

    expect(run.code, run.stderr + run.stdout).toBe(4);
    expect(existsSync(join(repo, 'ran.txt'))).toBe(false);
    // the run got as far as the edit and its commit before the command would have run
    expect(read(repo, 'app.js')).toBe('exports.double = (n) => n + n;\n');
    const errors = run.events().filter((e) => e['type'] === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.['message']).toMatch(message);
    expect(run.events().at(-1)).toMatchObject({ type: 'result', status: 'approval_required' });
    const audit = readFileSync(join(repo, '.tandem', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    expect(audit.at(-1)).toMatchObject({ kind: 'command', subject: 'node test.js', decision: 'no', by: 'policy' });
  });

  it('a typed /run is not run either: one line says why, and piped input ends with exit 4', async () => {
    const repo = gitRepo({ 'a.txt': 'a\n' });

    const run = await runCliInProcess(['--sandbox', '--map-tokens', '0'], { cwd: repo, stdin: '/run touch ran.txt\n', env: { PATH: pathWithoutBubblewrap() } });

    expect(run.code, run.stderr).toBe(4);
    expect(existsSync(join(repo, 'ran.txt'))).toBe(false);
    expect(run.stderr.match(/bubblewrap \(bwrap\) is not on PATH, so no command was run/g)).toHaveLength(1);
  });
});
