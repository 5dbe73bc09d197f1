// Golden apply cases: test/edits/golden/apply/<case>/{before/, reply.md, case.json, after/}.
// UPDATE_GOLDEN=1 rewrites after/ and the expected failure reasons from the current behaviour.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyPlanWithUndo, loadSnapshots } from '../../src/round/apply.js';
import { parseReply } from '../../src/coders/registry.js';
import { planEdits } from '../../src/edits/plan.js';
import type { EditFormat } from '../../src/edits/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const casesDir = path.join(here, 'golden', 'apply');
const update = process.env['UPDATE_GOLDEN'] === '1';

interface CaseSpec {
  format: EditFormat;
  chatFiles: string[];
  failures: string[];
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(path.join(dir, e.name), rel)));
    else out.push(rel);
  }
  return out.sort();
}

async function readTree(dir: string): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  for (const f of await listFiles(dir)) tree[f] = await fs.readFile(path.join(dir, f), 'latin1');
  return tree;
}

const caseNames = (await fs.readdir(casesDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);

describe('golden apply cases', () => {
  it('has at least 12 cases', () => {
    expect(caseNames.length).toBeGreaterThanOrEqual(12);
  });

  for (const name of caseNames) {
    it(name, async () => {
      const dir = path.join(casesDir, name);
      const spec = JSON.parse(await fs.readFile(path.join(dir, 'case.json'), 'utf8')) as CaseSpec;
      const reply = await fs.readFile(path.join(dir, 'reply.md'), 'utf8');
      const work = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `tandem-golden-${name}-`)));
      try {
        await fs.cp(path.join(dir, 'before'), work, { recursive: true });
        const parsed = parseReply(spec.format, reply, { chatFiles: spec.chatFiles });
        const loaded = await loadSnapshots(work, [...parsed.edits.map((e) => e.path), ...spec.chatFiles]);
        const plan = planEdits(parsed.edits, loaded.files, { chatFiles: spec.chatFiles, refused: loaded.refused, root: work });
        await applyPlanWithUndo(work, plan);
        const failures = plan.failures.map((f) => f.reason);
        if (update) {
          await fs.rm(path.join(dir, 'after'), { recursive: true, force: true });
          await fs.cp(work, path.join(dir, 'after'), { recursive: true });
          await fs.writeFile(path.join(dir, 'case.json'), JSON.stringify({ ...spec, failures }, null, 2) + '\n');
          return;
        }
        expect(failures).toEqual(spec.failures);
        expect(await readTree(work)).toEqual(await readTree(path.join(dir, 'after')));
      } finally {
        await fs.rm(work, { recursive: true, force: true });
      }
    });
  }
});
