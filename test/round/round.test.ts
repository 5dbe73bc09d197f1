// The round as the session calls it: one parse per reply, the ChangeSet's file-level refusals reported
// per block, and one ledger that keeps tandem's uncommitted writes out of the user's "wip" commits.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GitPort } from '../../src/coders/ports.js';
import { createPromptLoader, type PromptSet } from '../../src/coders/prompt-set.js';
import { CODERS } from '../../src/coders/registry.js';
import { createPromptReader } from '../../src/platform/prompt-files.js';
import type { ParseContext } from '../../src/edits/types.js';
import { GitOperationError } from '../../src/git/errors.js';
import { blockFailures, planChangeSet, refuseFiles } from '../../src/round/change-set.js';
import { UncommittedLedger } from '../../src/round/ledger.js';
import { ReflectionBudget } from '../../src/round/reflection-step.js';
import { runReplyRound, type RoundCoder, type RoundDeps } from '../../src/round/round.js';
import type { RoundEvent } from '../../src/round/round-events.js';
import { FakeChecks, FakeGit, ScriptedAsker } from '../support/fake-ports.js';
import { searchReplace } from '../support/replies.js';
import { fixedReplyModel } from '../support/scripted-model.js';
import { read, tempDir, writeFiles } from '../support/temp-repo.js';

const PROMPTS = fileURLToPath(new URL('../../prompts', import.meta.url));
let prompts: Promise<PromptSet> | undefined;

/** The diff coder with its real prompts, counting how often it parses. */
async function countingCoder(): Promise<RoundCoder & { parses: number }> {
  const set = await (prompts ??= createPromptLoader(createPromptReader(PROMPTS), { fence: '```', platform: 'linux' }).forCoder(CODERS.get('diff')));
  const coder = CODERS.get('diff');
  const counted = { prompts: set, parses: 0, coder };
  counted.coder = Object.assign(Object.create(coder) as typeof coder, {
    parse: (reply: string, context: ParseContext) => {
      counted.parses++;
      return coder.parse(reply, context);
    },
  });
  return counted;
}

function roundDeps(root: string, chatFiles: string[], git: GitPort, options: { repoFiles?: string[]; ledger?: UncommittedLedger } = {}) {
  const events: RoundEvent[] = [];
  const totals = { editsApplied: 0, editsFailed: 0, commits: 0, reflections: 0 };
  const asker = new ScriptedAsker({ 'add-file': 'yes' });
  const deps: RoundDeps = {
    options: { root, dryRun: false, autoCommits: true, dirtyCommits: true, autoLint: false, autoTest: false, testCommand: '' },
    ports: { weakModel: fixedReplyModel('feat: scripted change'), git, checks: new FakeChecks(), asker, shell: null },
    emit: (event) => void events.push(event),
    totals,
    ledger: options.ledger ?? new UncommittedLedger(),
    chat: { files: options.repoFiles ? { list: async () => options.repoFiles ?? [] } : null, asker, chatFiles, add: (path) => !chatFiles.includes(path) && chatFiles.push(path) > 0, declined: new Set() },
    commitMessage: { models: { weak: 'weak', main: 'main' }, request: 'change x' },
  };
  return { deps, events, totals, asker };
}

describe('one round of a reply', () => {
  it('parses the reply once, writes and commits it, and counts its blocks', async () => {
    const root = tempDir();
    writeFiles(root, { 'app.py': 'x = 1\n' });
    const loaded = await countingCoder();
    const git = new FakeGit();
    const { deps, totals } = roundDeps(root, ['app.py'], git);

    const step = await runReplyRound(searchReplace('app.py', 'x = 1\n', 'x = 2\n'), loaded, new ReflectionBudget(3), deps);

    expect(step).toEqual({ end: { status: 'completed' } });
    expect(loaded.parses).toBe(1);
    expect(read(root, 'app.py')).toBe('x = 2\n');
    expect(git.commits.map((c) => [c.paths, c.message, c.user])).toEqual([[['app.py'], 'feat: scripted change', false]]);
    expect(totals).toEqual({ editsApplied: 1, editsFailed: 0, commits: 1, reflections: 0 });
  });

  it("lets the syntax check prepare for the reply's files before they are written and committed", async () => {
    const root = tempDir();
    writeFiles(root, { 'app.py': 'x = 1\n' });
    const git = new FakeGit();
    const { deps } = roundDeps(root, ['app.py'], git);
    const checks = deps.ports.checks as FakeChecks;
    const seenAtPrepare: Array<{ text: string; commits: number }> = [];
    checks.onPrepare = () => seenAtPrepare.push({ text: read(root, 'app.py'), commits: git.commits.length });

    await runReplyRound(searchReplace('app.py', 'x = 1\n', 'x = 2\n'), await countingCoder(), new ReflectionBudget(3), deps);

    expect(checks.prepared).toEqual([['app.py']]);
    expect(seenAtPrepare).toEqual([{ text: 'x = 1\n', commits: 0 }]);
    expect(checks.syntaxChecked).toEqual(['app.py']);
  });

  it('prepares no check for a dry run, which checks nothing', async () => {
    const root = tempDir();
    writeFiles(root, { 'app.py': 'x = 1\n' });
    const { deps } = roundDeps(root, ['app.py'], new FakeGit());
    const dry = { ...deps, options: { ...deps.options, dryRun: true } };

    await runReplyRound(searchReplace('app.py', 'x = 1\n', 'x = 2\n'), await countingCoder(), new ReflectionBudget(3), dry);

    expect((deps.ports.checks as FakeChecks).prepared).toEqual([]);
    expect((deps.ports.checks as FakeChecks).syntaxChecked).toEqual([]);
  });

  it('parses a reply without edits once, offers the files it names, and asks again', async () => {
    const root = tempDir();
    writeFiles(root, { 'app.py': 'x = 1\n', 'lib/util.py': 'def f(): pass\n' });
    const loaded = await countingCoder();
    const { deps, asker } = roundDeps(root, ['app.py'], new FakeGit(), { repoFiles: ['app.py', 'lib/util.py'] });

    const step = await runReplyRound('I need to see lib/util.py first.', loaded, new ReflectionBudget(3), deps);

    expect(loaded.parses).toBe(1);
    expect(asker.asked.map((q) => q.question)).toEqual(['Add lib/util.py to the chat?']);
    expect(deps.chat.chatFiles).toEqual(['app.py', 'lib/util.py']);
    expect('next' in step && step.next).toMatch(/lib\/util\.py/);
  });
});

describe('the ledger of what tandem wrote and did not commit', () => {
  it('keeps a file tandem left uncommitted mid-merge out of the next round\'s "wip" commit', async () => {
    const root = tempDir();
    writeFiles(root, { 'app.py': 'x = 1\n' });
    const ledger = new UncommittedLedger();
    const git = new FakeGit();
    const merging: GitPort = {
      dirtyFiles: (paths) => git.dirtyFiles(paths),
      commitUserChanges: (paths, message) => git.commitUserChanges(paths, message),
      commitTandemChange: async () => {
        throw new GitOperationError('operation_in_progress', 'a merge is in progress, and git cannot commit part of it');
      },
    };
    const first = roundDeps(root, ['app.py'], merging, { ledger });
    await runReplyRound(searchReplace('app.py', 'x = 1\n', 'x = 2\n'), await countingCoder(), new ReflectionBudget(3), first.deps);
    expect(first.events).toContainEqual({ type: 'warning', message: 'Left the edits to app.py uncommitted: a merge is in progress, and git cannot commit part of it.' });
    expect(ledger.holdsTandemsText('app.py', 'x = 2\n')).toBe(true);

    // git now sees app.py as changed; it holds only tandem's text, so no "wip" commit is made for it.
    git.dirty.add('app.py');
    const second = roundDeps(root, ['app.py'], git, { ledger });
    await runReplyRound(searchReplace('app.py', 'x = 2\n', 'x = 3\n'), await countingCoder(), new ReflectionBudget(3), second.deps);
    expect(git.commits.map((c) => c.user)).toEqual([false]);
    expect(ledger.holdsTandemsText('app.py', 'x = 2\n')).toBe(false);
  });
});

describe('a ChangeSet', () => {
  it('refuses whole files with a reason, reported once per block after the plan\'s own failures', () => {
    const snapshot = (path: string, text: string | null) => ({ path, text, eol: '\n' as const, bom: false, finalNewline: true });
    const edits = [
      { kind: 'replace' as const, path: 'a.py', search: 'x\n', replace: 'y\n', index: 0, source: 'block 1' },
      { kind: 'replace' as const, path: 'b.py', search: '', replace: 'new\n', index: 1, source: 'block 2' },
      { kind: 'replace' as const, path: 'b.py', search: 'new\n', replace: 'newer\n', index: 2, source: 'block 3' },
      { kind: 'replace' as const, path: 'a.py', search: 'absent\n', replace: 'z\n', index: 3, source: 'block 4' },
    ];
    const planned = planChangeSet(edits, new Map([['a.py', snapshot('a.py', 'x\n')], ['b.py', snapshot('b.py', null)]]), { chatFiles: ['a.py'] });
    expect(planned.files.map((f) => [f.path, f.created])).toEqual([['a.py', false], ['b.py', true]]);

    const refused = refuseFiles(planned, new Map([['b.py', { reason: 'denied' as const, message: 'The user did not allow changes to b.py.' }]]));

    expect(refused.files.map((f) => f.path)).toEqual(['a.py']);
    expect(refused.refused).toEqual([{ path: 'b.py', editIndexes: [1, 2], reason: 'denied', message: 'The user did not allow changes to b.py.' }]);
    expect(blockFailures(refused).map((f) => [f.edit.path, f.edit.index, f.reason])).toEqual([
      ['a.py', 3, 'no_match'],
      ['b.py', 1, 'denied'],
      ['b.py', 2, 'denied'],
    ]);
    expect(planned.refused).toEqual([]);
  });
});
