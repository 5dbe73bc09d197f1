// Files on a real terminal (tmux): /add with a glob, a folder and a missing file (offered to be
// created), binary files refused, /drop of a read-only file, command-line files checked at start-up,
// and /diff before any request.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { gitRepo } from '../support/temp-repo.js';
import { cliArgs, promptShown, tmuxTests, type Pane } from './pty-pane.js';

const { open: openPane, serve } = tmuxTests();
let server: FakeOpenAIServer | undefined;

async function start(repo: string, extra: readonly string[] = []): Promise<Pane> {
  server = await serve();
  const pane = openPane(repo, [...cliArgs(server.url), ...extra]);
  await pane.waitFor((s) => promptShown(s), 'the prompt');
  return pane;
}

/** Runs a command and waits for the prompt to come back after its output. */
async function run(pane: Pane, line: string): Promise<string> {
  pane.enter(line);
  const screen = await pane.waitFor((s) => s.includes(`> ${line}`) && promptShown(s.split(`> ${line}`).at(-1) ?? ''), `${line} to finish`);
  return screen.split(`> ${line}`).at(-1) ?? '';
}

describe('files on a terminal', () => {
  it('adds the files a glob matches and the files git knows under a folder', async () => {
    const repo = gitRepo({
      'src/a.py': 'a = 1\n',
      'src/b.py': 'b = 1\n',
      'src/notes.txt': 'n\n',
      'lib/x.js': 'x\n',
      'lib/deep/y.js': 'y\n',
      '.gitignore': '*.log\n',
    });
    writeFileSync(join(repo, 'lib', 'build.log'), 'ignored\n');
    const pane = await start(repo);
    const glob = await run(pane, '/add src/*.py');
    expect(glob).toContain('Added src/a.py to the chat.');
    expect(glob).toContain('Added src/b.py to the chat.');
    expect(glob).not.toContain('notes.txt');
    const folder = await run(pane, '/add lib');
    expect(folder).toContain('Added lib/deep/y.js to the chat.');
    expect(folder).toContain('Added lib/x.js to the chat.');
    expect(folder).not.toContain('build.log');
    const listed = await run(pane, '/ls');
    expect(listed).toMatch(/src\/a\.py[\s\S]*src\/b\.py[\s\S]*lib\/x\.js/);
  });

  it('offers to create a missing file and refuses a binary one with its reason', async () => {
    const repo = gitRepo({ 'a.py': 'a\n' });
    writeFileSync(join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]));
    const pane = await start(repo);
    pane.enter('/add pkg/new_module.py');
    await pane.waitFor((s) => s.includes('No file pkg/new_module.py. Create it?'), 'the offer to create');
    pane.keys('y');
    await pane.waitFor((s) => s.includes('Created pkg/new_module.py and added it to the chat.'), 'the file created');
    expect(existsSync(join(repo, 'pkg', 'new_module.py'))).toBe(true);
    await pane.waitFor((s) => promptShown(s.split('Created pkg/new_module.py')[1] ?? ''), 'the prompt');
    const binary = await run(pane, '/add logo.png');
    expect(binary).toContain('Cannot add logo.png: it is a binary file, not text.');
    const listed = await run(pane, '/ls');
    const [inChat = '', others = ''] = listed.split('Other files in the repository');
    expect(inChat).toContain('pkg/new_module.py');
    expect(inChat).not.toContain('logo.png');
    expect(others).toContain('logo.png');
  });

  it('drops a read-only file, and moves a read-only file to the editable list when it is added', async () => {
    const repo = gitRepo({ 'notes.md': '# n\n', 'spec.md': '# s\n', 'a.py': 'a\n' });
    const pane = await start(repo, ['--read', 'notes.md', '--read', 'spec.md', 'a.py']);
    expect(await run(pane, '/drop notes.md')).toContain('Dropped read-only notes.md.');
    expect(await run(pane, '/add spec.md')).toContain('Moved spec.md from read-only to editable in the chat.');
    const [listed = '', others = ''] = (await run(pane, '/ls')).split('Other files in the repository');
    expect(listed).not.toContain('notes.md');
    expect(others).toContain('notes.md');
    expect(listed).not.toContain('Read-only');
    expect(listed).toMatch(/Files in the chat:\s+a\.py\s+spec\.md/);
    expect(await run(pane, '/drop')).toContain('Dropped 2 file(s) from the chat.');
  });

  it('checks files named on the command line at start-up: a misspelt one is offered, not silently kept', async () => {
    const repo = gitRepo({ 'app.py': 'a\n' });
    server = await serve();
    const pane = openPane(repo, [...cliArgs(server.url), 'app.py', 'ap.py']);
    await pane.waitFor((s) => s.includes('No file ap.py. Create it?'), 'the start-up offer');
    pane.keys('n');
    await pane.waitFor((s) => promptShown(s), 'the prompt');
    const listed = await run(pane, '/ls');
    expect(listed).toContain('app.py');
    expect(listed).not.toContain('ap.py\n');
    expect(existsSync(join(repo, 'ap.py'))).toBe(false);
  });

  it('says there are no changes on /diff before the first request', async () => {
    const repo = gitRepo({ 'a.py': 'a = 1\n', 'b.py': 'b = 1\n' });
    const pane = await start(repo);
    const diff = await run(pane, '/diff');
    expect(diff).toContain('No changes since the last request');
    expect(diff).not.toContain('diff --git');
  });
});
