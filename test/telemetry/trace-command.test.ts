// `tandem trace`: a recorded session's timeline (a one-shot run of a request with an edit, a failing lint
// and its fix, then a second request) at a fixed width, against its golden file; and what a planted
// log or audit file can and cannot do to it.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { gitRepo } from '../support/temp-repo.js';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const GOLDEN = new URL('./golden/trace-100.txt', import.meta.url);
const ID = '20261202-025207-su4k';
const update = process.env['UPDATE_GOLDEN'] === '1';

function repoWithSession(log = readFileSync(new URL('session.jsonl', FIXTURES), 'utf8'), audit: string | null = readFileSync(new URL('audit.jsonl', FIXTURES), 'utf8')): string {
  const repo = gitRepo({ 'calc.py': 'x = 1\n' });
  mkdirSync(join(repo, '.tandem', 'sessions'), { recursive: true });
  writeFileSync(join(repo, '.tandem', 'sessions', `${ID}.jsonl`), log);
  if (audit !== null) writeFileSync(join(repo, '.tandem', 'audit.jsonl'), audit);
  return repo;
}

describe('tandem trace', () => {
  it('prints the rows, bars, decisions and totals of a recorded session (golden, 100 columns)', async () => {
    const repo = repoWithSession();
    const result = await runCliInProcess(['trace', '--width', '100'], { cwd: repo });

    expect(result.code, result.stderr).toBe(0);
    if (update) writeFileSync(GOLDEN, result.stdout);
    expect(result.stdout).toBe(readFileSync(GOLDEN, 'utf8'));
    expect(result.stdout.split('\n').every((line) => [...line].length <= 100)).toBe(true);
    // Named by id, the same session; a narrow terminal still fits.
    const narrow = await runCliInProcess(['trace', ID, '--width', '60'], { cwd: repo });
    expect(narrow.code).toBe(0);
    expect(narrow.stdout.split('\n').every((line) => [...line].length <= 60)).toBe(true);
    expect(narrow.stdout).toContain('#2 what now?');
  });

  it('shows planted text escaped, skips lines it cannot read, and reads no audit file through a link', async () => {
    const log = readFileSync(new URL('session.jsonl', FIXTURES), 'utf8')
      .replace('"text":"edit calc"', '"text":"edit \\u001b]0;owned\\u0007calc"')
      .concat('{"type":"event","time":"not a time","event":"not an object"}\n', '{{{\n');
    const repo = repoWithSession(log, null);
    const secret = join(repo, '..', 'elsewhere.jsonl');
    writeFileSync(secret, `${JSON.stringify({ time: '2026-12-02T02:52:07.900Z', kind: 'command', subject: 'LINKED-SECRET', decision: 'yes', by: 'user' })}\n`);
    symlinkSync(secret, join(repo, '.tandem', 'audit.jsonl'));
    const result = await runCliInProcess(['trace', '--width', '100'], { cwd: repo });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('#1 edit \\e]0;owned\\x07calc');
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).toContain('Total: 2 requests');
    expect(result.stdout).not.toContain('LINKED-SECRET');
    expect(result.stderr).toContain('audit.jsonl is a symbolic link; not read');
  });

  it('takes only a session id it listed itself, and says when there is none', async () => {
    const repo = repoWithSession();
    const outside = await runCliInProcess(['trace', `../../${ID}`], { cwd: repo });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('no saved session with id');
    const empty = await runCliInProcess(['trace'], { cwd: gitRepo({ 'a.txt': 'a\n' }) });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no saved session in this repository');
    const help = await runCliInProcess(['trace', '--help'], { cwd: repo });
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('usage: tandem trace [SESSION]')]);
    const badWidth = await runCliInProcess(['trace', '--width', '-3'], { cwd: repo });
    expect(badWidth.code).toBe(2);
  });
});
