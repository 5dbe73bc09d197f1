// Property test: random and mutated replies through parseReply + planEdits never throw, never plan
// a path outside the repository, and never change a file that no block names.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReply } from '../../src/coders/registry.js';
import { normalizeRepoPath } from '../../src/edits/paths.js';
import { planEdits } from '../../src/edits/plan.js';
import type { EditFormat, FileSnapshot } from '../../src/edits/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = '/repo';

function seedReplies(): string[] {
  const out: string[] = [];
  for (const dir of [path.join(here, 'golden', 'apply'), path.join(here, 'golden', 'parse'), path.join(here, 'replies')]) {
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir)) {
      const reply = path.join(dir, name, 'reply.md');
      if (fs.existsSync(reply)) out.push(fs.readFileSync(reply, 'utf8'));
    }
  }
  return out;
}

const seeds = seedReplies();

const repoText: Record<string, string> = {
  'cart.py': 'class Cart:\n    def total(self):\n        return 1\n\n    def total(self):\n        return 1\n',
  'src/a.py': 'def alpha():\n    pass\n',
  'src/b.py': 'def beta():\n    pass\n',
  'win.txt': 'alpha\nbeta\ngamma\n',
  'notes.md': 'It\u2019s \u201cfine\u201d\n',
  // For the late rungs: tab indentation, aligned columns, decomposed accents; and a near-miss name.
  'main.go': 'func main() {\n\tfor {\n\t\tx  :=  1\n\t}\n}\n',
  'menu.txt': 'Cafe\u0301\nCafe\u0301\n',
  'postcss.config.js': 'module.exports = {};\n',
};
const files = new Map<string, FileSnapshot>(
  Object.entries(repoText).map(([p, text]) => [p, { path: p, text, eol: '\n', bom: false, finalNewline: true }]),
);
const chatFiles = ['cart.py', 'src/a.py', 'src/b.py', 'main.go', 'menu.txt', 'postcss.config.js'];

const hostilePaths = ['../x', '/etc/passwd', '..\\..\\win.ini', '.git/config', 'a/../../b', '/repo/../etc/x', 'C:/x', '~/x', ''];
const markers = ['<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE', '```', '--- a/x', '+++ b/x', '@@ -1 +1 @@'];
const weird = ['\u2019', '\u201C', '\u2014', '\u00A0', '\u200B', '\uFEFF', '\r', '\t', '\0', '\u{1F600}', '...', '    ', 'e\u0301', 'path/to/', '<source>', '</source>', '=======', 'postcss.config.cjs'];

type Mutation = (lines: string[], pick: number, extra: string) => string[];
const mutations: Mutation[] = [
  (l, i) => l.filter((_, j) => j !== i % Math.max(1, l.length)),
  (l, i) => {
    const j = i % Math.max(1, l.length);
    return [...l.slice(0, j + 1), l[j] ?? '', ...l.slice(j + 1)];
  },
  (l, i, x) => l.map((line, j) => (j === i % Math.max(1, l.length) ? x : line)),
  (l, i, x) => {
    const j = i % Math.max(1, l.length);
    return [...l.slice(0, j), x, ...l.slice(j)];
  },
  (l, i) => l.slice(0, i % (l.length + 1)),
  (l, i, x) => l.map((line) => (/^[\w./-]+\.\w+$/.test(line.trim()) ? (hostilePaths[i % hostilePaths.length] ?? x) : line)),
];

const mutatedReply = fc
  .tuple(
    fc.constantFrom(...seeds),
    fc.array(
      fc.tuple(
        fc.nat(mutations.length - 1),
        fc.nat(500),
        fc.oneof(fc.constantFrom(...markers, ...hostilePaths, ...weird), fc.string({ maxLength: 12 })),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([seed, steps]) => {
    let lines = seed.split('\n');
    for (const [m, pick, extra] of steps) lines = (mutations[m] as Mutation)(lines, pick, extra);
    return lines.join('\n');
  });

const randomReply = fc
  .array(fc.oneof(fc.constantFrom(...markers, ...hostilePaths, ...Object.keys(repoText), 'return 1', '    pass'), fc.string({ maxLength: 20 })), {
    maxLength: 30,
  })
  .map((l) => l.join('\n'));

const formats: EditFormat[] = ['diff', 'diff-fenced', 'whole', 'udiff'];

describe('fuzz: parse + plan', () => {
  it('never throws, never plans outside the repo, never touches an unnamed file', () => {
    expect(seeds.length).toBeGreaterThan(5);
    let planned = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.constantFrom(...formats), fc.oneof(mutatedReply, randomReply), (format, reply) => {
        const parsed = parseReply(format, reply, { chatFiles });
        const plan = planEdits(parsed.edits, files, { chatFiles, root: ROOT });
        if (plan.files.length > 0) planned++;
        if (plan.failures.some((f) => f.reason === 'outside_repo')) refused++;
        const named = new Set(parsed.edits.map((e) => normalizeRepoPath(e.path, ROOT)).filter((p) => typeof p === 'string'));
        for (const f of plan.files) {
          expect(normalizeRepoPath(f.path, ROOT)).toBe(f.path);
          expect(f.path.split('/')).not.toContain('..');
          if (!named.has(f.path)) {
            expect(chatFiles).toContain(f.path);
            expect(f.notes.join('\n')).toContain(`applied to ${f.path}`);
          }
        }
        expect(plan.failures.length + new Set(plan.files.flatMap((f) => f.editIndexes)).size).toBeLessThanOrEqual(parsed.edits.length);
      }),
      { numRuns: 20000, seed: 20240611 },
    );
    // The generators must reach both the planner's success path and its path refusals.
    expect(planned).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(100);
  });
});
