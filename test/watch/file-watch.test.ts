// Watch mode's engine in process, on a real git repository with a hand-run watcher and timer: what is
// watched, what fires, and what git or tandem wrote (which never fires).
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileWatch } from '../../src/cli/watch-files.js';
import type { BurstTimer } from '../../src/watch/save-burst.js';
import type { WatchRequest } from '../../src/watch/watch-request.js';
import { createFakeWatcher } from '../support/fake-watcher.js';
import { git, gitEnv, gitRepo } from '../support/temp-repo.js';

function setup(files: Record<string, string>) {
  const root = gitRepo(files);
  const watcher = createFakeWatcher();
  let due: Array<() => void> = [];
  const timer: BurstTimer = {
    after(_ms, fn) {
      due.push(fn);
      return () => (due = due.filter((f) => f !== fn));
    },
  };
  const triggers: WatchRequest[] = [];
  const watch = new FileWatch({
    root,
    env: gitEnv(),
    watchFiles: watcher.watchFiles,
    timer,
    templates: { code: 'CODE {comments}', ask: 'ASK {comments}' },
    onTrigger: (request) => triggers.push(request),
    warn: (message) => {
      throw new Error(message);
    },
  });
  /** The quiet time passes: the burst ends and is handled (its git look-ups awaited). */
  const settle = async (): Promise<void> => {
    const now = due;
    due = [];
    for (const fn of now) fn();
    await watch.handled();
  };
  const save = async (path: string, text: string): Promise<void> => {
    appendFileSync(join(root, path), text);
    watcher.emit({ kind: 'file', path });
    await settle();
  };
  return { root, watcher, watch, triggers, settle, save };
}

describe('FileWatch', () => {
  it('watches what the map would list, and none of .git, .tandem, node_modules or ignored files', async () => {
    const { watch, watcher } = setup({ 'a.py': 'x = 1\n', 'notes.bin': 'x', '.gitignore': 'build/\n', '.tandemignore': 'vendor/\n', 'vendor/v.py': '# v\n', 'src/b.ts': 'let b;\n' });
    await watch.start();
    expect(watch.fileCount).toBe(2);
    expect(watcher.includes('a.py')).toBe(true);
    expect(watcher.includes('src/b.ts')).toBe(true);
    expect(watcher.includes('vendor/v.py')).toBe(false);
    expect(watcher.includes('notes.bin')).toBe(false);
    expect(watcher.includes('node_modules', true)).toBe(false);
    expect(watcher.includes('.tandem/x.py')).toBe(false);
    expect(watcher.includes('.git', true)).toBe(false);
    await watch.stop();
    expect(watcher.running).toBe(false);
  });

  it("fires once per new comment; tandem's writes, checkouts and files git ignores fire nothing", async () => {
    const { root, watch, triggers, save, watcher, settle } = setup({ 'a.py': '# there at start AI!\n', '.gitignore': 'out.py\n' });
    git(root, 'checkout', '-q', '-b', 'other');
    writeFileSync(join(root, 'a.py'), '# there at start AI!\n# from the branch AI!\n');
    git(root, 'commit', '-q', '-am', 'branch');
    git(root, 'checkout', '-q', '-');
    await watch.start();

    await save('a.py', '# mine AI!\n');
    expect(triggers.map((t) => t.summary)).toEqual(['a.py:2: mine AI!']);

    // tandem writes a comment of its own: noted at its edit, it never fires.
    appendFileSync(join(root, 'a.py'), '# from the model AI!\n');
    watch.ownWrite('a.py');
    watcher.emit({ kind: 'file', path: 'a.py' });
    await settle();
    expect(triggers).toHaveLength(1);

    // A checkout brings a comment in, whatever order its events arrive in.
    git(root, 'stash', '-q');
    git(root, 'checkout', '-q', 'other');
    watcher.emit({ kind: 'file', path: 'a.py' });
    watcher.emit({ kind: 'git', name: 'HEAD' });
    await settle();
    expect(triggers).toHaveLength(1);

    // A file git ignores is not a request, even when it is saved with one.
    writeFileSync(join(root, 'out.py'), '# ignored AI!\n');
    watcher.emit({ kind: 'file', path: 'out.py' });
    await settle();
    expect(triggers).toHaveLength(1);

    // A new file the user makes is theirs; the request quotes only the user's comments.
    await save('new.py', '# and this AI?\n');
    expect(triggers).toHaveLength(2);
    expect(triggers[1]!.mode).toBe('ask');
    expect(triggers[1]!.files).toEqual(['new.py']);
    await watch.stop();
  });
});
