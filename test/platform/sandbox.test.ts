// The sandbox's parts: where bubblewrap is looked up (never inside the repository), the mounts in the
// order that matters, what a real sandboxed run can and cannot touch, and what a repository's config
// may do with the two settings (turn the sandbox on, never off; never open the network).
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { createProcessRunner } from '../../src/platform/process.js';
import { bubblewrapArgs, createSandbox, findBubblewrap, SandboxError } from '../../src/platform/sandbox.js';
import { isRunning } from '../support/pid-file.js';
import { tempDir } from '../support/temp-repo.js';

const PATH = process.env['PATH'] ?? '/usr/bin:/bin';

describe('findBubblewrap', () => {
  it('skips relative PATH entries and any inside the repository: a repository cannot ship its own bwrap', () => {
    const root = tempDir();
    const repo = join(root, 'repo');
    const outside = join(root, 'tools');
    for (const dir of [join(repo, 'bin'), outside]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'bwrap'), '#!/bin/sh\nexec "$@"\n');
      chmodSync(join(dir, 'bwrap'), 0o755);
    }
    expect(findBubblewrap(`bin:${join(repo, 'bin')}:${repo}`, repo)).toBeNull();
    expect(findBubblewrap(`bin:${join(repo, 'bin')}:${outside}`, repo)).toBe(join(outside, 'bwrap'));
    expect(findBubblewrap(undefined, repo)).toBeNull();
  });
});

describe('bubblewrapArgs', () => {
  it('mounts the host read-only, empties the home folders, then gives the repository back with .git read-only', () => {
    const options = { root: '/home/u/code/app', hiddenDirs: ['/home/u', '/home/u/', '/', 'relative', '/nonexistent'], network: false, path: PATH };
    const args = bubblewrapArgs(options, ['/bin/sh', '-c', 'make'], (p) => p.endsWith('/.git') || p === '/home/u');
    expect(args).toEqual([
      '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp',
      '--tmpfs', '/home/u',
      '--bind', '/home/u/code/app', '/home/u/code/app',
      '--ro-bind', '/home/u/code/app/.git', '/home/u/code/app/.git',
      '--unshare-all', '--cap-drop', 'ALL', '--die-with-parent', '--chdir', '/home/u/code/app',
      '--', '/bin/sh', '-c', 'make',
    ]);
    expect(bubblewrapArgs({ ...options, network: true }, ['true'], () => false)).toContain('--share-net');
  });

  it('refuses to start anything when bubblewrap is missing', () => {
    const sandbox = createSandbox({ root: tempDir(), hiddenDirs: [], network: false, path: tempDir() });
    expect(() => sandbox.launch(['true'], {})).toThrow(SandboxError);
  });
});

/** Live `sleep MARKER...` processes on the host (zombies are dead; bubblewrap's own arguments do not count). */
function survivors(marker: string): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const [command, arg] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return command === 'sleep' && arg?.startsWith(marker) === true && isRunning(Number(pid));
      } catch {
        return false;
      }
    });
}

/**
 * The survivors once the kernel has torn the sandbox's PID namespace down: that happens right after its
 * first process ends, but not always before the runner returns, so this polls (at most 250 looks).
 */
async function gone(marker: string): Promise<string[]> {
  for (let look = 0; look < 250; look++) {
    if (survivors(marker).length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return survivors(marker);
}

describe('a real sandboxed run', () => {
  it('writes the repository but not its .git, sees an empty home and a private /tmp, and takes its background children with it', async () => {
    const base = tempDir();
    const home = join(base, 'home');
    // the usual layout: the repository inside the home folder it hides
    const repo = join(home, 'code', 'repo');
    mkdirSync(join(repo, '.git', 'hooks'), { recursive: true });
    mkdirSync(join(home, '.aws'), { recursive: true });
    writeFileSync(join(home, '.aws', 'credentials'), 'aws-secret\n');
    writeFileSync(join(base, 'host-only.txt'), 'host\n');
    const sandbox = createSandbox({ root: repo, hiddenDirs: [home], network: false, path: PATH });
    const runner = createProcessRunner({ sandbox });
    // sleep's own argument marks it: a unique duration no other process has
    const marker = `300.${process.pid}1`;
    const script = [
      'echo made > made.txt',
      'echo hook > .git/hooks/pre-commit 2>/dev/null || echo "git: read-only"',
      `ls -A "$HOME" | tr '\\n' ' ' | sed 's/^/home entries: /'`,
      'echo',
      `cat "$HOME/.aws/credentials" 2>/dev/null || echo "no aws"`,
      'echo "tmp: $TMPDIR"',
      `test -e ${join(base, 'host-only.txt')} || echo "host /tmp hidden"`,
      // a child that leaves the process group still ends with the sandbox
      `setsid sleep ${marker} > /dev/null 2>&1 &`,
      // wait until it really is that sleep, so the check below cannot pass by coming too early
      `until grep -qa ${marker} /proc/$!/cmdline; do sleep 0.01; done`,
      'echo done',
    ].join('\n');

    const result = await runner.run(script, { cwd: repo, env: { PATH, HOME: home }, timeoutMs: 30_000 });

    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toContain('git: read-only');
    // only the way down to the repository exists in the emptied home
    expect(result.output).toContain('home entries: code \n');
    expect(result.output).toContain('no aws');
    expect(result.output).not.toContain('aws-secret');
    expect(result.output).toContain('tmp: /tmp');
    expect(result.output).toContain('host /tmp hidden');
    expect(result.output).toContain('done');
    expect(readFileSync(join(repo, 'made.txt'), 'utf8')).toBe('made\n');
    expect(existsSync(join(repo, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(await gone(marker)).toEqual([]);
  });

  it('a timeout ends the sandbox and everything in it', async () => {
    const repo = tempDir();
    const runner = createProcessRunner({ sandbox: createSandbox({ root: repo, hiddenDirs: [], network: false, path: PATH }) });
    const marker = `300.${process.pid}2`;
    const script = `setsid sleep ${marker}1 > /dev/null 2>&1 &\nuntil grep -qa ${marker}1 /proc/$!/cmdline; do sleep 0.01; done\nsleep ${marker}2`;

    const result = await runner.run(script, { cwd: repo, env: { PATH }, timeoutMs: 500 });

    expect(result.timedOut).toBe(true);
    expect(await gone(marker)).toEqual([]);
  });
});

describe("a repository's config and the sandbox", () => {
  function load(homeConf: string, repoConf: string) {
    const root = tempDir();
    const homeDir = join(root, 'home');
    const repoRoot = join(root, 'repo');
    mkdirSync(homeDir);
    mkdirSync(repoRoot);
    writeFileSync(join(homeDir, '.tandem.conf.yml'), homeConf);
    writeFileSync(join(repoRoot, '.tandem.conf.yml'), repoConf);
    const readFile = (file: string): string | null => (existsSync(file) ? readFileSync(file, 'utf8') : null);
    return loadConfig({ homeDir, repoRoot, env: {}, flags: {}, readFile });
  }

  it('may turn the sandbox on, never off, and never open its network', () => {
    expect(load('', 'sandbox: true\n').settings.sandbox).toBe(true);
    const off = load('sandbox: true\n', 'sandbox: false\nsandbox-network: true\n');
    expect(off.settings.sandbox).toBe(true);
    expect(off.settings['sandbox-network']).toBe(false);
    expect(off.problems.map((p) => p.message).join('\n')).toMatch(/cannot turn off sandbox[\s\S]*cannot turn on sandbox-network/);
    expect(load('sandbox-network: true\n', 'sandbox-network: false\n').settings['sandbox-network']).toBe(false);
  });
});
