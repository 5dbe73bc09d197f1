// The prompt layout through the real CLI: the bench's scripted chat (edits building on each other,
// questions, identifiers named from outside the chat, the map on) against the fake server. Every
// edit lands on the current file, and each request's prompt starts with the previous one's messages.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REUSE_TARGET, runCacheChat, summarizeCacheChat } from '../../bench/cache.js';
import { CHAT_FILE, CHAT_STEPS, promptReuse, sharedPrefixLength } from '../../bench/cache-chat.js';
import { resumeRunArgs } from '../../bench/cache-resume.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PATH_ENV = process.env['PATH'] ?? '/usr/bin:/bin';

describe('scripted chat against the fake server', () => {
  it('appends to the previous prompt on every request and lands every edit', async () => {
    const run = await runCacheChat(PACKAGE_ROOT, PATH_ENV);
    expect(run.code, run.stderr).toBe(0);
    expect(run.prompts).toHaveLength(CHAT_STEPS.length);

    const summary = summarizeCacheChat(run, (text) => Math.ceil(text.length / 4));
    expect(summary.editsFailed).toBe(0);
    expect(summary.editsApplied).toBe(summary.editsExpected);
    for (let i = 1; i < run.prompts.length; i++) {
      const previous = run.prompts[i - 1]!;
      expect(JSON.stringify(run.prompts[i]!.slice(0, previous.length)), `request ${i + 1}`).toBe(JSON.stringify(previous));
    }
    // The chat file's full text went out once; later requests carry diffs.
    const fileCopies = run.prompts.at(-1)!.filter((m) => m.content.includes(`${CHAT_FILE}\n\`\`\`\n"""Order processing steps."""`));
    expect(fileCopies).toHaveLength(1);
    expect(run.prompts.at(-1)!.filter((m) => m.content.startsWith('Current state')).length).toBeGreaterThanOrEqual(4);
    // A name defined outside the chat reaches that request's own message, not the shared map.
    const named = run.prompts[3]!;
    expect(named.at(-1)!.content).toContain('lib/invoice.py:1: def format_invoice_line(item):');
    expect(summary.overall).toBeGreaterThanOrEqual(REUSE_TARGET);
    // Nine requests through the built CLI: beside six busy loops it took 20 s. The timeout guards against a
    // hang, never the speed (that is npm run bench's).
  }, 120_000);
});

describe('prefix reuse arithmetic', () => {
  it('counts only the shared prefix from the first character', () => {
    expect(sharedPrefixLength('abcdef', 'abcxyz')).toBe(3);
    expect(sharedPrefixLength('xbc', 'abc')).toBe(0);
    const reuse = promptReuse(['aaaa', 'aaaabb', 'baaaabb'], (t) => t.length);
    expect(reuse).toEqual([{ promptTokens: 4, reusedTokens: 0 }, { promptTokens: 6, reusedTokens: 4 }, { promptTokens: 7, reusedTokens: 0 }]);
  });
});

describe('the resumed-runs chain', () => {
  it('names the chat file in the first run only and resumes the latest session after it', () => {
    const first = resumeRunArgs('http://127.0.0.1:1/v1', 0);
    const later = resumeRunArgs('http://127.0.0.1:1/v1', 2);
    expect(first.slice(-3)).toEqual(['--message', CHAT_STEPS[0]!.input, CHAT_FILE]);
    expect(later.slice(-3)).toEqual(['--message', CHAT_STEPS[2]!.input, '--resume']);
    expect(later).not.toContain(CHAT_FILE);
  });
});
