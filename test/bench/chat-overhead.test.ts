// The chat-overhead bench on a small generated repository: one process, requests on stdin, every
// request reaches the server and the gaps between them are measured (their size is the bench's
// business, not a test's).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { measureChatOverhead, overheadRow } from '../../bench/chat-overhead.js';
import { tempDir } from '../support/temp-repo.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('chat overhead bench', () => {
  it('sends every request of the scripted chat and reports the median gap', async () => {
    const cacheDir = path.join(tempDir('tandem-bench-chat-'), '.bench-cache');
    await mkdir(cacheDir, { recursive: true });
    const result = await measureChatOverhead(PACKAGE_ROOT, cacheDir, process.env['PATH'] ?? '/usr/bin:/bin', true, 4);
    expect(result.gapsMs).toHaveLength(3);
    expect(result.gapsMs.every((gap) => gap > 0)).toBe(true);
    expect(result.files).toBeGreaterThan(30);
    const row = overheadRow(result);
    expect(row.value).toBe(result.medianMs);
    expect(row.metric).toContain('median of 3');
    // A chat on a generated tree through the built CLI: 17 s beside six busy loops; the timeout only guards against a hang.
  }, 120_000);
});
