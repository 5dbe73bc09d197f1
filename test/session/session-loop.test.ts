// The request loop in process: a scripted model, fake git/checks/asker ports, real files in a temp
// folder, the real coders and prompts. Every way a request ends (completed, reflection limit,
// approval required, error, interrupted) is checked here in milliseconds, through the session's
// public surface only (runRequest and its events), so the loop's inner steps may change freely.
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCoder } from '../../src/coders/base-coder.js';
import type { Answer, ApprovalKind, RepoFilesPort } from '../../src/coders/ports.js';
import { loadPromptSet } from '../../src/coders/prompt-set.js';
import type { CoderFormat } from '../../src/model/edit-formats.js';
import type { TextFileSystem } from '../../src/platform/file-system.js';
import type { SessionEvent } from '../../src/session/events.js';
import { exitCodeFor } from '../../src/session/exit-codes.js';
import { Session, type LoadedCoder, type SessionOptions } from '../../src/session/session.js';
import { FakeChecks, FakeGit, ScriptedAsker, approxTokens } from '../support/fake-ports.js';
import { ScriptedModel, fixedReplyModel, type ScriptedTurn } from '../support/scripted-model.js';
import { tempDir, writeFiles } from '../support/temp-repo.js';
import { MemoryFileSystem } from '../support/fake-platform.js';

const PROMPTS = fileURLToPath(new URL('../../prompts', import.meta.url));

interface Setup {
  readonly files?: Record<string, string>;
  readonly chat?: string[];
  readonly turns: ScriptedTurn[];
  readonly answers?: Partial<Record<ApprovalKind, Answer>>;
  readonly options?: Partial<SessionOptions>;
  /** The repository's files, as the files port lists them (default: no files port). */
  readonly repoFiles?: string[];
  /** Where the session reads its chat files' texts (default: the temp folder on disk). */
  readonly fileSystem?: (root: string) => TextFileSystem;
}

function start(setup: Setup) {
  const root = tempDir('tandem-session-');
  writeFiles(root, setup.files ?? {});
  const model = new ScriptedModel([...setup.turns]);
  const weakModel = fixedReplyModel('feat: scripted change');
  const git = new FakeGit();
  const checks = new FakeChecks();
  const asker = new ScriptedAsker(setup.answers);
  const events: SessionEvent[] = [];
  const listeners: Array<(event: SessionEvent) => void> = [];
  const coders = new Map<string, Promise<LoadedCoder>>();
  const loadCoder = (kind: CoderFormat | 'architect' | 'context'): Promise<LoadedCoder> => {
    const format = kind === 'architect' || kind === 'context' ? 'ask' : kind;
    if (!coders.has(kind)) {
      coders.set(kind, loadPromptSet(PROMPTS, kind === 'context' ? 'context-mode' : kind, { fence: '```', platform: 'linux' }).then((prompts) => ({ coder: createCoder(format, prompts.format), prompts })));
    }
    return coders.get(kind)!;
  };
  const session = new Session(
    {
      root,
      models: { main: 'scripted', weak: 'scripted-weak', editor: 'scripted' },
      editFormat: 'diff',
      editorFormat: 'diff',
      mode: 'code',
      stream: true,
      dryRun: false,
      autoCommits: true,
      dirtyCommits: true,
      autoLint: true,
      autoTest: false,
      testCommand: '',
      maxReflections: 3,
      mapTokens: 0,
      maxHistoryTokens: 100_000,
      contextWindow: 128_000,
      reminderPlacement: 'user',
      ...setup.options,
    },
    {
      ports: { model, weakModel, tokens: approxTokens, git, checks, asker, repoMap: null, shell: null, files: repoFilesOf(setup.repoFiles) },
      emit: (event) => {
        events.push(event);
        for (const listener of listeners) listener(event);
      },
      loadCoder,
      recorder: null,
      texts: { summarize: 'Summarize.', summaryTemplate: '{summary}', editorRequest: 'Do this plan:\n{plan}' },
      fileSystem: setup.fileSystem?.(root),
    },
  );
  for (const path of setup.chat ?? []) session.addChatFile(path);
  const read = (path: string): string => readFileSync(join(root, path), 'utf8');
  const ofType = <T extends SessionEvent['type']>(type: T) => events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type);
  const once = (type: SessionEvent['type']): Promise<void> => new Promise((resolve) => listeners.push((e) => e.type === type && resolve()));
  return { session, model, weakModel, git, checks, asker, events, read, ofType, once };
}

function repoFilesOf(paths: readonly string[] | undefined): RepoFilesPort | null {
  return paths ? { list: async () => [...paths] } : null;
}

function block(path: string, search: string, replace: string): string {
  return `${path}\n\`\`\`python\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n\`\`\`\n`;
}

const APP = { 'app.py': 'def total(xs):\n    return sum(xs)\n' };

/** One reply editing the chat file and a file outside the chat. */
const OUTSIDE_CHAT = {
  files: { ...APP, 'config.py': 'DEBUG = False\n' },
  chat: ['app.py'],
  turns: [`${block('app.py', '    return sum(xs)\n', '    return 0\n')}\n${block('config.py', 'DEBUG = False\n', 'DEBUG = True\n')}`],
};

describe('a request through the session loop', () => {
  it('completes: the edit lands, is committed with the weak model message, and is linted', async () => {
    const t = start({ files: APP, chat: ['app.py'], turns: [`Done.\n\n${block('app.py', '    return sum(xs)\n', '    return sum(xs) or 0\n')}`] });
    const outcome = await t.session.runRequest('make total safe');
    expect(outcome.status).toBe('completed');
    expect(t.read('app.py')).toBe('def total(xs):\n    return sum(xs) or 0\n');
    expect(t.git.commits).toEqual([expect.objectContaining({ paths: ['app.py'], message: 'feat: scripted change', user: false })]);
    expect(t.checks.linted).toEqual([['app.py']]);
    expect(t.ofType('edit')).toEqual([expect.objectContaining({ path: 'app.py', status: 'applied' })]);
    expect(t.ofType('reflection')).toEqual([]);
    expect(t.model.requests).toHaveLength(1);
    expect(t.model.lastUserMessage(0)).toContain('make total safe');
    expect(t.session.history.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('commits the user work on the file first, apart from tandem commit', async () => {
    const t = start({ files: APP, chat: ['app.py'], turns: [block('app.py', '    return sum(xs)\n', '    return 0\n')] });
    t.git.dirty.add('app.py');
    expect((await t.session.runRequest('zero')).status).toBe('completed');
    expect(t.git.commits.map((c) => [c.user, c.paths])).toEqual([
      [true, ['app.py']],
      [false, ['app.py']],
    ]);
  });

  it('reflects a failed edit back to the model with the closest lines, then completes', async () => {
    const t = start({
      files: APP,
      chat: ['app.py'],
      turns: [block('app.py', '    return sum(x)\n', '    return 0\n'), block('app.py', '    return sum(xs)\n', '    return 0\n')],
    });
    const outcome = await t.session.runRequest('return zero');
    expect(outcome.status).toBe('completed');
    expect(t.ofType('reflection')).toEqual([{ type: 'reflection', n: 1, reason: 'edit' }]);
    const reflection = t.model.lastUserMessage(1);
    expect(reflection).toContain('1 edit block failed to apply');
    expect(reflection).toContain('2 |     return sum(xs)');
    expect(reflection).toContain('No other blocks were applied');
    expect(t.read('app.py')).toBe('def total(xs):\n    return 0\n');
    expect(t.git.commits).toHaveLength(1);
    expect(t.ofType('edit').map((e) => e.status)).toEqual(['failed', 'applied']);
  });

  it('stops at the reflection limit with the edits still failing', async () => {
    const wrong = block('app.py', '    return nothing\n', '    return 0\n');
    const t = start({ files: APP, chat: ['app.py'], turns: [wrong, wrong, wrong], options: { maxReflections: 2 } });
    const outcome = await t.session.runRequest('return zero');
    expect(outcome).toMatchObject({ status: 'reflection_limit', message: expect.stringContaining('Stopped after 2 reflections') });
    expect(t.model.requests).toHaveLength(3);
    expect(t.ofType('reflection').map((e) => e.n)).toEqual([1, 2]);
    expect(t.ofType('error').at(-1)?.message).toMatch(/still failing: edit/);
    expect(t.read('app.py')).toBe(APP['app.py']);
    expect(t.git.commits).toEqual([]);
  });

  it('asks before sending lint failures back, and stops at the limit when they persist', async () => {
    const t = start({
      files: APP,
      chat: ['app.py'],
      turns: [block('app.py', '    return sum(xs)\n', '    return sum(xs)  \n'), block('app.py', '    return sum(xs)  \n', '    return sum(xs) \n')],
      answers: { 'fix-failures': 'yes' },
      options: { maxReflections: 1 },
    });
    t.checks.lintOutcomes.push({ ok: false, output: 'app.py:2: trailing whitespace' }, { ok: false, output: 'app.py:2: trailing whitespace' });
    const outcome = await t.session.runRequest('tidy');
    expect(outcome.status).toBe('reflection_limit');
    expect(t.asker.asked.map((q) => q.kind)).toEqual(['fix-failures']);
    expect(t.model.lastUserMessage(1)).toContain('app.py:2: trailing whitespace');
    expect(t.git.commits).toHaveLength(2);
  });

  it('needs approval nobody can give: the legit edit lands, the file outside the chat does not change', async () => {
    const t = start({ ...OUTSIDE_CHAT, answers: { 'edit-outside-chat': 'unanswerable' } });
    const outcome = await t.session.runRequest('debug on');
    expect(outcome.status).toBe('approval_required');
    expect(t.model.requests).toHaveLength(1);
    expect(t.read('app.py')).toBe('def total(xs):\n    return 0\n');
    expect(t.read('config.py')).toBe('DEBUG = False\n');
    expect(t.ofType('edit').map((e) => [e.path, e.status])).toEqual([
      ['config.py', 'denied'],
      ['app.py', 'applied'],
    ]);
  });

  it('takes a person\'s "no" as final: the file stays, nothing is sent back to retry', async () => {
    const t = start({ ...OUTSIDE_CHAT, answers: { 'edit-outside-chat': 'no' } });
    const outcome = await t.session.runRequest('debug on');
    expect(outcome.status).toBe('completed');
    expect(t.asker.asked).toEqual([expect.objectContaining({ kind: 'edit-outside-chat', question: expect.stringContaining('config.py') })]);
    expect(t.model.requests).toHaveLength(1);
    expect(t.ofType('reflection')).toEqual([]);
    expect(t.read('config.py')).toBe('DEBUG = False\n');
    expect(t.read('app.py')).toBe('def total(xs):\n    return 0\n');
    expect(t.session.chatFiles).toEqual(['app.py']);
  });

  it('ends with an error when the model fails, and the chat goes on', async () => {
    const t = start({ files: APP, chat: ['app.py'], turns: [{ error: 'auth', message: 'The API key was refused.' }, 'Hello again.'] });
    expect(await t.session.runRequest('hi')).toEqual({ status: 'error', message: 'The API key was refused.' });
    expect(t.ofType('error').map((e) => e.message)).toEqual(['The API key was refused.']);
    expect(await t.session.runRequest('hi again')).toEqual({ status: 'completed' });
    expect(t.model.requests).toHaveLength(2);
  });

  it('ends with an error when git fails in the middle of a round: the reply is rolled back, the chat goes on', async () => {
    const t = start({
      files: APP,
      chat: ['app.py'],
      turns: [block('app.py', '    return sum(xs)\n', '    return 0\n'), block('app.py', '    return sum(xs)\n', '    return 1\n')],
    });
    t.git.failNextCommit = 'fatal: Unable to create index.lock: File exists.';
    const outcome = await t.session.runRequest('zero');
    expect(outcome).toMatchObject({ status: 'error', message: expect.stringContaining('index.lock') });
    expect(t.ofType('error').at(-1)?.message).toContain('index.lock');
    expect(t.read('app.py')).toBe('def total(xs):\n    return sum(xs)\n');
    expect(t.git.commits).toEqual([]);
    expect((await t.session.runRequest('one')).status).toBe('completed');
    expect(t.read('app.py')).toBe('def total(xs):\n    return 1\n');
    expect(t.git.commits).toHaveLength(1);
  });

  it('is interrupted mid-reply: nothing from the partial reply applies, and the history says so', async () => {
    const t = start({ files: APP, chat: ['app.py'], turns: [{ untilAborted: true, partial: `Sure.\n\n${block('app.py', '    return sum(xs)\n', '    return 0\n')}` }] });
    const controller = new AbortController();
    void t.once('assistant_delta').then(() => controller.abort());
    const outcome = await t.session.runRequest('zero', controller.signal);
    expect(outcome.status).toBe('interrupted');
    expect(t.read('app.py')).toBe(APP['app.py']);
    expect(t.ofType('assistant')).toEqual([expect.objectContaining({ interrupted: true })]);
    expect(t.session.history.at(-1)?.content).toMatch(/\[interrupted by the user\]$/);
    expect(t.git.commits).toEqual([]);
  });

  it('in architect mode sends the plan to the editor model, whose edits land; the chat keeps the plan', async () => {
    const t = start({
      files: APP,
      chat: ['app.py'],
      turns: ['Plan: make total return 0.', block('app.py', '    return sum(xs)\n', '    return 0\n')],
      options: { mode: 'architect' },
    });
    expect((await t.session.runRequest('zero please')).status).toBe('completed');
    expect(t.model.lastUserMessage(1)).toMatch(/Do this plan:\nPlan: make total return 0\./);
    expect(t.read('app.py')).toBe('def total(xs):\n    return 0\n');
    expect(t.session.history.map((m) => m.content)).toEqual(['zero please', 'Plan: make total return 0.']);
  });

  it('adds the files a reply asks for and sends the request again, which then lands', async () => {
    const t = start({
      files: { ...APP, 'util.py': 'ZERO = 0\n' },
      chat: ['app.py'],
      repoFiles: ['app.py', 'util.py'],
      turns: ['To do this I need to see util.py first.', block('app.py', '    return sum(xs)\n', '    return 0\n')],
      answers: { 'add-file': 'yes' },
    });
    const outcome = await t.session.runRequest('return zero');
    expect(outcome.status).toBe('completed');
    expect(t.session.chatFiles).toEqual(['app.py', 'util.py']);
    expect(t.ofType('reflection')).toEqual([{ type: 'reflection', n: 1, reason: 'files added' }]);
    expect(t.model.requests).toHaveLength(2);
    expect(t.model.lastUserMessage(1)).toContain('util.py');
    expect(t.read('app.py')).toBe('def total(xs):\n    return 0\n');
  });

  it('keeps the re-ask after added files out of the fix budget: two failed lints later, a third fix still goes back', async () => {
    const t = start({
      files: { ...APP, 'util.py': 'ZERO = 0\n' },
      chat: ['app.py'],
      repoFiles: ['app.py', 'util.py'],
      turns: [
        'I need util.py.',
        block('app.py', '    return sum(xs)\n', '    return 1\n'),
        block('app.py', '    return 1\n', '    return 2\n'),
        block('app.py', '    return 2\n', '    return 3\n'),
        block('app.py', '    return 3\n', '    return 0\n'),
      ],
      answers: { 'add-file': 'yes', 'fix-failures': 'yes' },
    });
    const failed = { ok: false, output: 'app.py:2: magic number' };
    t.checks.lintOutcomes.push(failed, failed, failed);
    const outcome = await t.session.runRequest('return zero');
    expect(outcome.status).toBe('completed');
    expect(t.ofType('reflection')).toEqual([
      { type: 'reflection', n: 1, reason: 'files added' },
      { type: 'reflection', n: 1, reason: 'lint' },
      { type: 'reflection', n: 2, reason: 'lint' },
      { type: 'reflection', n: 3, reason: 'lint' },
    ]);
    expect(t.model.requests).toHaveLength(5);
    expect(t.read('app.py')).toBe('def total(xs):\n    return 0\n');
    expect(t.session.resultTotals().reflections).toBe(4);
  });

  it('stops a model that keeps asking for more files after 3 re-asks, whatever --max-reflections allows', async () => {
    const wanted = ['a.py', 'b.py', 'c.py', 'd.py'];
    const t = start({
      files: { ...APP, ...Object.fromEntries(wanted.map((f) => [f, 'X = 1\n'])) },
      chat: ['app.py'],
      repoFiles: ['app.py', ...wanted],
      turns: wanted.map((f) => `Before I can do this I need to see ${f}.`),
      answers: { 'add-file': 'yes' },
      // No fixes allowed at all: the re-asks have their own budget.
      options: { maxReflections: 0 },
    });
    const outcome = await t.session.runRequest('return zero');
    expect(outcome).toMatchObject({ status: 'reflection_limit', message: expect.stringContaining('Stopped after asking again 3 times with added files') });
    expect(exitCodeFor(outcome.status)).toBe(3);
    expect(outcome.message).toContain('d.py, now in the chat');
    expect(t.ofType('error').map((e) => e.message)).toEqual([outcome.message]);
    expect(t.ofType('reflection').map((e) => [e.reason, e.n])).toEqual([
      ['files added', 1],
      ['files added', 2],
      ['files added', 3],
    ]);
    expect(t.model.requests).toHaveLength(4);
    expect(t.model.lastUserMessage(3)).toContain('c.py');
    expect(t.session.chatFiles).toEqual(['app.py', ...wanted]);
  });

  it('does not send a request too big for the window unless the user says so', async () => {
    const refused = start({ files: APP, chat: ['app.py'], turns: ['never sent'], options: { contextWindow: 20 } });
    expect(await refused.session.runRequest('return zero')).toEqual({ status: 'completed', message: 'Request not sent.' });
    expect(refused.asker.asked.map((q) => q.kind)).toEqual(['oversized-request']);
    const headless = start({ files: APP, chat: ['app.py'], turns: ['never sent'], options: { contextWindow: 20 }, answers: { 'oversized-request': 'unanswerable' } });
    expect((await headless.session.runRequest('return zero')).status).toBe('approval_required');
    expect([refused.model.requests.length, headless.model.requests.length]).toEqual([0, 0]);
    const allowed = start({ files: APP, chat: ['app.py'], turns: ['Nothing to change.'], options: { contextWindow: 20 }, answers: { 'oversized-request': 'yes' } });
    expect((await allowed.session.runRequest('return zero')).status).toBe('completed');
    expect(allowed.model.requests).toHaveLength(1);
  });

  it('with --dry-run plans the edit and writes and commits nothing', async () => {
    const t = start({ files: APP, chat: ['app.py'], turns: [block('app.py', '    return sum(xs)\n', '    return 0\n')], options: { dryRun: true } });
    expect((await t.session.runRequest('zero')).status).toBe('completed');
    expect(t.ofType('edit')).toEqual([expect.objectContaining({ path: 'app.py', status: 'planned', diff: expect.stringContaining('+    return 0') })]);
    expect(t.read('app.py')).toBe(APP['app.py']);
    expect(t.git.commits).toEqual([]);
  });
});

describe("the chat files' texts", () => {
  it('come from the file system port: a file it cannot give is left out quietly, one it refuses is warned about', async () => {
    const t = start({
      chat: ['app.py', 'gone.py', 'big.py'],
      turns: ['Nothing to change.'],
      fileSystem: (root) => new MemoryFileSystem({ [join(root, 'app.py')]: 'X = 1  # from the port\n', [join(root, 'big.py')]: 'x'.repeat(1024 * 1024 + 1) }),
    });
    expect((await t.session.runRequest('look')).status).toBe('completed');
    const sent = t.model.requests[0]!.messages.map((m) => m.content).join('\n');
    expect(sent).toContain('X = 1  # from the port');
    expect(sent).not.toContain('gone.py\n```');
    expect(t.ofType('warning').map((w) => w.message)).toEqual([expect.stringContaining('big.py is 1048577 bytes')]);
  });

  it('warn about a refused file once a session, across requests and reflections, and again only when its state changes', async () => {
    let fs: MemoryFileSystem | undefined;
    const big = 'x'.repeat(1024 * 1024 + 1);
    const t = start({
      files: APP,
      chat: ['app.py', 'big.py'],
      turns: [block('app.py', '    return nothing\n', '    return 0\n'), block('app.py', '    return sum(xs)\n', '    return 0\n'), 'Nothing.', 'Nothing.', 'Nothing.', 'Nothing.'],
      fileSystem: (root) => (fs = new MemoryFileSystem({ [join(root, 'app.py')]: APP['app.py'], [join(root, 'big.py')]: big })),
    });
    const bigPath = [...fs!.files.keys()].find((p) => p.endsWith('big.py'))!;
    const warnings = () => t.ofType('warning').map((w) => w.message);
    expect((await t.session.runRequest('return zero')).status).toBe('completed');
    expect(t.model.requests).toHaveLength(2);
    expect((await t.session.runRequest('look again')).status).toBe('completed');
    expect(warnings()).toEqual([expect.stringContaining('big.py is 1048577 bytes')]);
    fs!.files.set(bigPath, 'SMALL = 1\n');
    expect((await t.session.runRequest('and now')).status).toBe('completed');
    expect(t.model.requests[3]!.messages.map((m) => m.content).join('\n')).toContain('SMALL = 1');
    expect(warnings()).toHaveLength(1);
    fs!.files.set(bigPath, `${big}y`);
    expect((await t.session.runRequest('once more')).status).toBe('completed');
    expect((await t.session.runRequest('and again')).status).toBe('completed');
    expect(warnings()).toEqual([expect.stringContaining('big.py is 1048577 bytes'), expect.stringContaining('big.py is 1048578 bytes')]);
  });

  it('warn once about a chat file on disk whose real path leaves the repository', async () => {
    const outside = tempDir('tandem-outside-');
    writeFiles(outside, { 'secret.py': 'TOKEN = 1\n' });
    const t = start({ files: APP, chat: ['app.py'], turns: ['Nothing.', 'Nothing.'] });
    const root = t.session.options.root;
    symlinkSync(join(outside, 'secret.py'), join(root, 'link.py'));
    t.session.addChatFile('link.py');
    await t.session.runRequest('look');
    await t.session.runRequest('look again');
    expect(t.ofType('warning')).toHaveLength(1);
    expect(t.ofType('warning')[0]!.message).toContain('link.py');
    expect(t.model.requests.flatMap((r) => r.messages.map((m) => m.content)).join('\n')).not.toContain('TOKEN = 1');
  });
});
