// The shapes real models reply in (test/edits/replies/<case>/): each reply goes through the parser, the
// planner and apply against its before/ tree and must leave exactly after/ (files an expected failure
// names stay as they were), with the parse problems, failures and notes case.json lists.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlanWithUndo, loadSnapshots } from '../../src/round/apply.js';
import { parseReply } from '../../src/coders/registry.js';
import { planEdits } from '../../src/edits/plan.js';
import { listTree, readReplyCase, replyCaseNames, type ReplyCase } from '../support/reply-cases.js';

async function planCase(spec: ReplyCase, work: string) {
  const parsed = parseReply(spec.format, spec.reply, { chatFiles: spec.chatFiles });
  const loaded = await loadSnapshots(work, [...parsed.edits.map((e) => e.path), ...spec.chatFiles]);
  const plan = planEdits(parsed.edits, loaded.files, { chatFiles: spec.chatFiles, refused: loaded.refused, root: work });
  await applyPlanWithUndo(work, plan);
  return { parsed, plan };
}

describe('real-model reply shapes through parse, plan and apply', () => {
  it('has a case per variant', () => {
    expect(replyCaseNames().length).toBeGreaterThanOrEqual(20);
  });

  for (const name of replyCaseNames()) {
    it(name, async () => {
      const spec = await readReplyCase(name);
      const work = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `tandem-reply-${name}-`)));
      try {
        await fs.cp(spec.beforeDir, work, { recursive: true });
        const { parsed, plan } = await planCase(spec, work);
        const problems = parsed.problems.map((p) => p.message).join('\n');
        if (spec.problems.length === 0) expect(problems).toBe('');
        for (const words of spec.problems) expect(problems).toContain(words);

        const failures = plan.failures.map((f) => ({ reason: f.reason, path: f.edit.path }));
        expect(failures).toEqual(spec.failures.map((f) => ({ reason: f.reason, path: f.path })));
        for (const [i, f] of spec.failures.entries()) {
          for (const words of f.says) expect(plan.failures[i]?.message).toContain(words);
        }
        const notes = plan.files.flatMap((f) => f.notes).join('\n');
        for (const words of spec.notes) expect(notes).toContain(words);

        // With a follow-up reply (which fixes them), files an expected failure names keep their before/ state here.
        const failed = new Set(spec.followup === null ? [] : spec.failures.map((f) => f.path));
        const expected = { ...(await listTree(spec.afterDir)) };
        const before = await listTree(spec.beforeDir);
        for (const p of failed) {
          if (before[p] === undefined) delete expected[p];
          else expected[p] = before[p];
        }
        expect(await listTree(work)).toEqual(expected);
      } finally {
        await fs.rm(work, { recursive: true, force: true });
      }
    });
  }
});
