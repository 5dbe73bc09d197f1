import { describe, expect, it } from 'vitest';
import { closestWindow, describeRoundProblems } from '../../src/edits/failure-message.js';
import { toLines } from '../../src/edits/match-lines.js';
import { planEdits } from '../../src/edits/plan.js';
import type { Edit, FileSnapshot } from '../../src/edits/types.js';

const file = [
  'import os',
  '',
  'def load(path):',
  '    with open(path) as f:',
  '        return f.read()',
  '',
  'def save(path, data):',
  '    with open(path, "w") as f:',
  '        f.write(data)',
].join('\n') + '\n';

const snap: FileSnapshot = { path: 'io.py', text: file, eol: '\n', bom: false, finalNewline: true };

function edit(search: string, replace: string, index = 0): Edit {
  return { kind: 'replace', path: 'io.py', search, replace, index, source: `io.py\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE` };
}

function plan(edits: Edit[]): ReturnType<typeof planEdits> {
  return planEdits(edits, new Map([['io.py', snap]]), { chatFiles: ['io.py'] });
}

describe('failure messages', () => {
  it('no_match quotes the block and shows the closest lines with numbers', () => {
    const p = plan([edit('def save(path, payload):\n    with open(path, "wb") as f:\n', 'x\n')]);
    const msg = p.failures[0]?.message ?? '';
    expect(p.failures[0]?.reason).toBe('no_match');
    expect(msg).toContain('<<<<<<< SEARCH\ndef save(path, payload):');
    expect(msg).toContain('7 | def save(path, data):');
    expect(msg).toContain('8 |     with open(path, "w") as f:');
    expect(msg).not.toContain('3 | def load');
  });

  it('notes when REPLACE is already present', () => {
    const p = plan([edit('import sys\n', 'import os\n')]);
    expect(p.failures[0]?.message).toMatch(/REPLACE text is already present in io\.py/);
  });

  it('ambiguous lists candidate lines', () => {
    const amb = planEdits([edit('x = 1\n', 'x = 2\n')], new Map([['io.py', { ...snap, text: 'x = 1\ny\nx = 1\n' }]]), { chatFiles: [] });
    expect(amb.failures[0]?.message).toMatch(/matches 2 places in io\.py, starting at lines 1, 3/);
  });

  it('counts the applied blocks and tells the model not to resend them', () => {
    const p = plan([edit('nothing like this\n', 'x\n'), edit('import os\n', 'import sys\n', 1)]);
    const prompts = { parseProblems: '{problems}' };
    const text = describeRoundProblems({ parseProblems: [], failures: p.failures, appliedCount: 1 }, prompts);
    expect(text).toMatch(/^1 edit block failed to apply/);
    expect(text).toMatch(/The other 1 block applied successfully. Do not send it again/);
    expect(describeRoundProblems({ parseProblems: [], failures: p.failures, appliedCount: 0 }, prompts)).toMatch(/No other blocks were applied/);
  });

  it('says once what applied when a reply has both malformed and failed blocks, and never sends a denial back', () => {
    const p = plan([edit('nothing like this\n', 'x\n'), edit('import os\n', 'import sys\n', 1)]);
    const prompts = { parseProblems: 'Unreadable:\n{problems}\nResend those.' };
    const denied = { ...p.failures[0]!, reason: 'denied' as const, edit: { ...p.failures[0]!.edit, path: 'secret.py' } };
    const text = describeRoundProblems({ parseProblems: ['line 9 of your reply: no REPLACE'], failures: [...p.failures, denied], appliedCount: 2 }, prompts);
    expect(text.match(/applied successfully|were applied/g)).toEqual(['applied successfully']);
    expect(text).toMatch(/^Unreadable:\nline 9 of your reply: no REPLACE\nResend those\.\n\n1 edit block failed to apply:/);
    expect(text).toMatch(/The other 2 blocks applied successfully\. Do not send them again; fix only the blocks above\.$/);
    expect(text).not.toContain('secret.py');
    expect(describeRoundProblems({ parseProblems: [], failures: [denied], appliedCount: 0 }, prompts)).toBe('');
    expect(describeRoundProblems({ parseProblems: [], failures: [], appliedCount: 3 }, prompts)).toBe('');
  });

  it('closestWindow finds the best-aligned window', () => {
    const lines = toLines(file);
    expect(closestWindow(lines, ['def save(path, blob):'])).toEqual({ start: 6, end: 7 });
    expect(closestWindow([], ['x'])).toBeNull();
  });
});
