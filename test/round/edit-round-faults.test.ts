// A reply lands whole or not at all: the Nth file operation or the Nth commit fails with a real error
// code, and the work tree is then either exactly as before the reply or fully applied and committed.
import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CODERS } from '../../src/coders/registry.js';
import { describe, expect, it } from 'vitest';
import { runEditRound, type CommitWritten } from '../../src/round/edit-round.js';
import type { GitPort } from '../../src/coders/ports.js';
import { nodeFileSystem as nodeWriteFs, type FileSystem as WriteFs } from '../../src/platform/file-system.js';
import { recoverJournal } from '../../src/round/apply-journal.js';
import { createRepoLock } from '../../src/platform/repo-lock.js';
import { commitFiles } from '../../src/git/commit.js';
import { dirtyFiles } from '../../src/git/dirty.js';
import { GitOperationError } from '../../src/git/errors.js';
import { searchReplace } from '../support/replies.js';
import { git, gitRepo, tempDir, writeFiles } from '../support/temp-repo.js';

const coder = CODERS.get('diff');
const REPLY = [
  searchReplace('app.py', 'x = 1\n', 'x = 2\n'),
  searchReplace('Makefile', '', 'all:\n\techo ok\n'),
  searchReplace('docs/new/guide.md', '', '# Guide\n'),
  searchReplace('lib/util.py', 'def f():\n', 'def f(a):\n'),
].join('\n');
const APPLIED: Record<string, string> = {
  'app.py': 'x = 2\n',
  Makefile: 'all:\n\techo ok\n',
  'docs/new/guide.md': '# Guide\n',
  'lib/util.py': 'def f(a):\n    return 1\n',
};
const CHAT = ['app.py', 'lib/util.py', 'Makefile', 'docs/new/guide.md'];

function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === '.git') continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        walk(full);
        files[`${relative(root, full)}/`] = '';
      } else files[relative(root, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return files;
}

function fsError(code: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: injected`);
  error.code = code;
  return error;
}

/** The real file system, except that the Nth call of the named operations fails with `code`. */
function failingFs(ops: ReadonlyArray<keyof WriteFs>, n: number, code: string): WriteFs & { calls: number } {
  const wrapped = { ...nodeWriteFs, calls: 0 } as WriteFs & { calls: number };
  for (const op of ops) {
    const real = nodeWriteFs[op] as (...args: unknown[]) => Promise<unknown>;
    (wrapped as unknown as Record<string, unknown>)[op] = async (...args: unknown[]) => {
      wrapped.calls += 1;
      if (wrapped.calls === n) throw fsError(code);
      return real(...args);
    };
  }
  return wrapped;
}

function gitPort(root: string, failCommit: number | null): GitPort & { commits: number } {
  const port = {
    commits: 0,
    dirtyFiles: (paths: readonly string[]) => dirtyFiles(root, paths),
    async commitUserChanges(paths: readonly string[], message: string) {
      port.commits += 1;
      if (port.commits === failCommit) throw new GitOperationError('git_failed', 'git commit failed: injected');
      return commitFiles(root, paths, message, { attribution: false });
    },
    async commitTandemChange(paths: readonly string[], message: string) {
      port.commits += 1;
      if (port.commits === failCommit) throw new GitOperationError('git_failed', 'git commit failed: injected');
      return commitFiles(root, paths, message, { attribution: true });
    },
  };
  return port;
}

let template: string | undefined;

/** A fresh copy of one committed repository (copying costs no git processes; each case makes dozens). */
function setup(): { root: string; before: Record<string, string> } {
  template ??= gitRepo({ 'app.py': 'x = 1\n', 'lib/util.py': 'def f():\n    return 1\n' });
  const root = join(tempDir(), 'repo');
  cpSync(template, root, { recursive: true });
  // The user's own pending change to a file the reply edits: it must end up committed as theirs or stay.
  writeFiles(root, { 'lib/util.py': 'def f():\n    return 1\n# mine\n' });
  return { root, before: snapshot(root) };
}

async function run(root: string, fs: WriteFs, port: GitPort): Promise<{ ok: boolean; error?: string }> {
  const commit: CommitWritten = async (paths) => {
    await port.commitTandemChange(paths, 'tandem: change');
  };
  try {
    await runEditRound(coder.parse(REPLY, { chatFiles: CHAT }), { root, chatFiles: CHAT, dryRun: false, dirtyCommits: true }, { asker: { confirm: async () => 'yes' }, git: port, emit: () => {}, commit, fs });
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function expectWholeOrNothing(root: string, before: Record<string, string>, outcome: { ok: boolean; error?: string }): void {
  const after = snapshot(root);
  if (!outcome.ok) {
    expect(after, outcome.error).toEqual(before);
    return;
  }
  for (const [path, text] of Object.entries(APPLIED)) expect(after[path], path).toBe(path === 'lib/util.py' ? 'def f(a):\n    return 1\n# mine\n' : text);
  expect(git(root, 'status', '--porcelain')).toBe('');
  expect(git(root, 'log', '-1', '--format=%B')).toContain('Tandem-Commit: yes');
}

describe('a reply with a failing write', () => {
  const codes = ['EEXIST', 'EACCES', 'ENOSPC', 'ENOTDIR'];
  const ops: Array<ReadonlyArray<keyof WriteFs>> = [['writeNew'], ['rename'], ['mkdir']];
  const cases = [...codes.flatMap((code) => ops.map((op) => ({ code, op }))), { code: 'ENOSPC', op: ['writeNew', 'rename', 'mkdir', 'chmod'] as const }];
  for (const { code, op } of cases) {
    {
      it(`leaves the tree as before when the Nth ${op.join('/')} fails with ${code}`, async () => {
        let sawFailure = false;
        let sawSuccess = false;
        for (let n = 1; n <= 20; n++) {
          const { root, before } = setup();
          const fs = failingFs(op, n, code);
          const outcome = await run(root, fs, gitPort(root, null));
          if (outcome.ok) sawSuccess = true;
          else {
            sawFailure = true;
            // One readable line naming the file and the reason, never a stack.
            expect(outcome.error).toMatch(/^Could not write \S+ \([a-z -]+\); nothing was changed\.$/);
          }
          // The user's pending work is never lost: committed as theirs, or still in the file.
          expect(git(root, 'log', '--all', '-p').includes('# mine') || readFileSync(join(root, 'lib/util.py'), 'utf8').includes('# mine')).toBe(true);
          expectWholeOrNothing(root, before, outcome);
          if (outcome.ok) break;
        }
        expect(sawFailure).toBe(true);
        expect(sawSuccess).toBe(true);
      });
    }
  }
});

describe('a reply whose commit fails', () => {
  it('puts every written file back (created ones removed) when the Nth commit fails', async () => {
    for (const n of [1, 2]) {
      const { root, before } = setup();
      const port = gitPort(root, n);
      const outcome = await run(root, nodeWriteFs, port);
      expect(outcome.ok).toBe(false);
      // The user's work is committed first, before anything is written: its failure writes nothing.
      expect(outcome.error).toBe(n === 1 ? 'git commit failed: injected' : 'git commit failed: injected; the edits were undone, nothing was changed.');
      expect(port.commits).toBe(n);
      expect(snapshot(root)).toEqual(before);
    }
    const { root, before } = setup();
    const outcome = await run(root, nodeWriteFs, gitPort(root, 3));
    expect(outcome.ok).toBe(true);
    expectWholeOrNothing(root, before, outcome);
    expect(git(root, 'log', '--format=%s')).toBe('tandem: change\nwip: your changes to lib/util.py before tandem\'s edit\ninitial\n');
  });
});

describe('a file that changes between planning and writing', () => {
  it('is never overwritten: the round ends with the reason and writes nothing', async () => {
    const root = gitRepo({ 'app.py': 'x = 1\n', 'other.py': 'y = 1\n' });
    const reply = searchReplace('app.py', 'x = 1\n', 'x = 2\n') + searchReplace('other.py', 'y = 1\n', 'y = 2\n');
    // The user edits app.py while tandem waits for the answer to its question about other.py.
    const asker = {
      confirm: async () => {
        writeFiles(root, { 'app.py': 'x = 1\n# typed meanwhile\n' });
        return 'yes' as const;
      },
    };
    const error = await runEditRound(coder.parse(reply, { chatFiles: ['app.py'] }), { root, chatFiles: ['app.py'], dryRun: false, dirtyCommits: false }, { asker, git: null, emit: () => {} }).catch((e: unknown) => e);
    expect((error as { kind?: string }).kind).toBe('changed_on_disk');
    expect((error as Error).message).toBe('app.py changed on disk after the edits were planned.');
    expect(readFileSync(join(root, 'app.py'), 'utf8')).toBe('x = 1\n# typed meanwhile\n');
    expect(readFileSync(join(root, 'other.py'), 'utf8')).toBe('y = 1\n');
  });
});

describe('a tandem killed while applying', () => {
  it('leaves a journal from which the next tandem puts the tree back', async () => {
    for (const n of [2, 3, 4]) {
      const { root, before } = setup();
      const journal = { file: join(root, '.tandem', 'apply-journal.json'), pid: 1, trustDir: join(root, '..', 'home-journals') };
      // The Nth temp file is written but never renamed: the process is gone at that moment, as after SIGKILL.
      let calls = 0;
      const killed: WriteFs = {
        ...nodeWriteFs,
        writeNew: async (p, d) => {
          await nodeWriteFs.writeNew(p, d);
          if (++calls === n + 1) await new Promise<void>(() => {});
        },
      };
      void runEditRound(coder.parse(REPLY, { chatFiles: CHAT }), { root, chatFiles: CHAT, dryRun: false, dirtyCommits: false }, { asker: { confirm: async () => 'yes' }, git: null, emit: () => {}, fs: killed, journal });
      await new Promise<void>((resolve) => {
        const poll = (): void => (calls > n ? resolve() : void setImmediate(poll));
        poll();
      });
      expect(snapshot(root)).not.toEqual(before);

      const restored = await recoverJournal(nodeWriteFs, root, journal.file, { trustDir: journal.trustDir });

      expect(restored.length).toBe(n - 1);
      const after = snapshot(root);
      delete after['.tandem/'];
      expect(after, `killed at write ${n}`).toEqual(before);
    }
  });

  it('is recovered by the next edit round under the lock, leaving files the user changed since alone', async () => {
    const { root } = setup();
    const journal = { file: join(root, '.tandem', 'apply-journal.json'), pid: 1, trustDir: join(root, '..', 'home-journals') };
    let calls = 0;
    const killed: WriteFs = { ...nodeWriteFs, writeNew: (p, d) => (++calls === 4 ? new Promise<void>(() => {}) : nodeWriteFs.writeNew(p, d)) };
    void runEditRound(coder.parse(REPLY, { chatFiles: CHAT }), { root, chatFiles: CHAT, dryRun: false, dirtyCommits: false }, { asker: { confirm: async () => 'yes' }, git: null, emit: () => {}, fs: killed, journal });
    await new Promise<void>((resolve) => {
      const poll = (): void => (calls >= 4 ? resolve() : void setImmediate(poll));
      poll();
    });
    // app.py and Makefile were written; the user then edits Makefile by hand.
    writeFiles(root, { Makefile: 'mine:\n' });
    const events: Array<{ type: string; message?: string }> = [];
    const lock = createRepoLock(root, { timeoutMs: 1000, pid: process.pid });

    await runEditRound(coder.parse(searchReplace('app.py', 'x = 1\n', 'x = 3\n'), { chatFiles: CHAT }), { root, chatFiles: CHAT, dryRun: false, dirtyCommits: false }, { asker: { confirm: async () => 'yes' }, git: null, emit: (e) => events.push(e), lock, journal });

    expect(events[0]).toEqual({ type: 'info', message: 'Put back 1 file(s) that a stopped tandem had left half-applied: app.py.' });
    expect(readFileSync(join(root, 'app.py'), 'utf8')).toBe('x = 3\n');
    expect(readFileSync(join(root, 'Makefile'), 'utf8')).toBe('mine:\n');
  });
});

describe('SIGTERM or Ctrl-C while a reply is being written', () => {
  it('stops between two files and puts back what was written, at every point', async () => {
    for (const n of [1, 2, 3, 4]) {
      const { root, before } = setup();
      const journal = { file: join(root, '.tandem', 'apply-journal.json'), pid: 1, trustDir: join(root, '..', 'home-journals') };
      const controller = new AbortController();
      // The signal arrives while the Nth file of the reply is being renamed into place.
      let renames = 0;
      const fs: WriteFs = {
        ...nodeWriteFs,
        rename: async (from, to) => {
          await nodeWriteFs.rename(from, to);
          if (!to.endsWith('apply-journal.json') && ++renames === n) controller.abort();
        },
      };
      const error = await runEditRound(
        coder.parse(REPLY, { chatFiles: CHAT }),
        { root, chatFiles: CHAT, dryRun: false, dirtyCommits: false, signal: controller.signal },
        { asker: { confirm: async () => 'yes' }, git: null, emit: () => {}, fs, journal },
      ).catch((e: unknown) => e);
      expect((error as { kind?: string }).kind, `signal at write ${n}`).toBe('interrupted');
      expect((error as Error).message).toMatch(/every file written was put back|nothing was changed/);
      const after = snapshot(root);
      delete after['.tandem/'];
      expect(after, `signal at write ${n}`).toEqual(before);
      expect(readdirSync(join(root, '..', 'home-journals'))).toEqual([]);
    }
  });
});
