// The audit log in process: who decided each question (a person, --yes-always, an earlier answer, the
// rules), lines that carry untrusted names only as JSON strings, and a log file no symlink can redirect.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAsker } from '../../src/cli/asker.js';
import type { Choice } from '../../src/cli/keys.js';
import { auditLine, createAuditFile, type AuditDecision, type AuditLog } from '../../src/platform/audit-log.js';
import { tempDir } from '../support/temp-repo.js';

function memoryAudit(): AuditLog & { readonly lines: AuditDecision[] } {
  const lines: AuditDecision[] = [];
  return { lines, record: (decision) => void lines.push(decision) };
}

describe('the asker records each decision', () => {
  it('names who answered: the user, an earlier "all" or "never", --yes-always, or the policy when nobody can', async () => {
    const audit = memoryAudit();
    const answers: Choice[] = ['yes', 'all', 'never', 'no'];
    const asker = createAsker({ yesAlways: false, prompt: async () => answers.shift() ?? 'no', emit: () => {}, promptCount: () => 1, audit });
    await asker.confirm('Run the suggested command: make?', 'shell-command', 'make');
    await asker.confirm('Create new file a.py?', 'create-file', 'a.py');
    await asker.confirm('Create new file b.py?', 'create-file', 'b.py');
    await asker.confirm('Allow edits to .env?', 'sensitive-file', '.env');
    await asker.confirm('Allow edits to .env?', 'sensitive-file', '.env');
    await asker.confirm('Add c.py to the chat?', 'add-file', 'c.py');
    // retries and costs change nothing on the machine: not recorded
    await asker.confirm('Ask the model to fix the lint failures?', 'fix-failures');
    const yes = createAsker({ yesAlways: true, prompt: null, emit: () => {}, audit });
    await yes.confirm('Allow edits to x.py, which is not in the chat?', 'edit-outside-chat', 'x.py');
    await yes.confirm('Run the suggested command: rm -rf /?', 'shell-command', 'rm -rf /');

    expect(audit.lines).toEqual([
      { kind: 'command', subject: 'make', decision: 'yes', by: 'user' },
      { kind: 'new-file', subject: 'a.py', decision: 'yes', by: 'user' },
      { kind: 'new-file', subject: 'b.py', decision: 'yes', by: 'remembered', reason: "'all' earlier" },
      { kind: 'person-only', subject: '.env', decision: 'no', by: 'user' },
      { kind: 'person-only', subject: '.env', decision: 'no', by: 'remembered', reason: "'never' earlier" },
      { kind: 'add-file', subject: 'c.py', decision: 'no', by: 'user' },
      { kind: 'edit', subject: 'x.py', decision: 'yes', by: 'yes-always' },
      { kind: 'command', subject: 'rm -rf /', decision: 'no', by: 'policy', reason: 'nobody to ask: no terminal (headless or --json)' },
    ]);
  });
});

describe('audit lines', () => {
  it('hold an untrusted subject only as a JSON string: no raw control character, separator or quote breaks the line', () => {
    const subject = 'a\u001b[2J\u009b31m\u2028b\n"c"\\\u007f.py';
    const line = auditLine({ kind: 'new-file', subject, decision: 'no', by: 'policy', reason: 'r' }, new Date('2026-12-02T03:00:00Z'), '20261202-030000-abcd');

    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(JSON.parse(line)).toEqual({ time: '2026-12-02T03:00:00.000Z', kind: 'new-file', subject, decision: 'no', by: 'policy', session: '20261202-030000-abcd', reason: 'r' });
  });

  it('cut a huge subject and say so', () => {
    const line = JSON.parse(auditLine({ kind: 'command', subject: 'x'.repeat(10_000), decision: 'no', by: 'user' }, new Date(0))) as { subject: string };
    expect(line.subject).toMatch(/^x{4096}\[\.\.\. 5904 more characters\]$/);
  });
});

describe('the audit file', () => {
  it('appends one line per decision', () => {
    const file = join(tempDir(), '.tandem', 'audit.jsonl');
    const audit = createAuditFile(file, { now: () => new Date(0), session: () => 's1' });
    audit.record({ kind: 'edit', subject: 'a.py', decision: 'yes', by: 'user' });
    audit.record({ kind: 'url-fetch', subject: 'https://example.com/', decision: 'no', by: 'user' });
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.slice(0, 2).map((l) => (JSON.parse(l) as { subject: string; session: string }).subject)).toEqual(['a.py', 'https://example.com/']);
  });

  it('writes nothing through a symlink planted where the log goes, says so once, and goes on', () => {
    const dir = tempDir();
    const target = join(dir, 'bashrc');
    writeFileSync(target, 'original\n');
    mkdirSync(join(dir, 'repo', '.tandem'), { recursive: true });
    const file = join(dir, 'repo', '.tandem', 'audit.jsonl');
    symlinkSync(target, file);
    const warnings: string[] = [];
    const audit = createAuditFile(file, { now: () => new Date(0), onError: (m) => warnings.push(m) });
    audit.record({ kind: 'edit', subject: 'a.py', decision: 'yes', by: 'user' });
    audit.record({ kind: 'edit', subject: 'b.py', decision: 'yes', by: 'user' });
    expect(readFileSync(target, 'utf8')).toBe('original\n');
    expect(warnings).toHaveLength(1);
    expect(existsSync(file)).toBe(true);
  });
});
