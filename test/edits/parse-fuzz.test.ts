// Random and mutated replies through every parser: no throw, well-formed results.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReply } from '../../src/coders/registry.js';
import type { EditFormat, ParseResult } from '../../src/edits/types.js';

const formats: EditFormat[] = ['diff', 'diff-fenced', 'whole', 'udiff'];
const goldenRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden', 'parse');
const repliesRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), 'replies');
// The golden parse cases and the real-model reply shapes (<source> fences, stray dividers, udiff variants).
const seeds = [
  ...readdirSync(goldenRoot).map((d) => readFileSync(path.join(goldenRoot, d, 'reply.md'), 'utf8')),
  ...readdirSync(repliesRoot).map((d) => readFileSync(path.join(repliesRoot, d, 'reply.md'), 'utf8')),
];

const pieces = [
  '<<<<<<< SEARCH', '<<<<<<<SEARCH', '<<<< SEARCH', '=======', '====', '>>>>>>> REPLACE', '>>>>>>>REPLACE',
  '```', '```python', '````', '~~~', '```bash', '```python a.py', 'a.py', '`src/b.py`:', '**x.md**', '',
  '--- a/a.py', '+++ b/a.py', '+++ /dev/null', '--- /dev/null', '@@ -1,2 +1,2 @@', '@@ @@', ' ctx', '-old', '+new',
  '$ echo hi', '# comment', 'x = 1', '\\ No newline at end of file', '    indented', 'cat <<EOF', 'EOF', '\r',
  '<source>', '<source>python', '</source>', '   ```', 'path/to/file.ext', 'ctx without prefix', '\uFEFFx = 1',
];

const lineArb = fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 12 }));
const replyArb = fc.array(lineArb, { maxLength: 40 }).map((ls) => ls.join('\n'));
const mutatedArb = fc
  .tuple(fc.constantFrom(...seeds), fc.array(fc.tuple(fc.nat(), fc.nat(), lineArb), { maxLength: 6 }))
  .map(([seed, ops]) => {
    const lines = seed.split('\n');
    for (const [at, op, text] of ops) {
      const i = at % (lines.length + 1);
      if (op % 3 === 0) lines.splice(i, 1);
      else if (op % 3 === 1) lines.splice(i, 0, text);
      else lines.splice(i, 1, text);
    }
    return lines.join('\n');
  });
const filesArb = fc.constantFrom<string[]>([], ['a.py'], ['a.py', 'src/b.py'], ['README.md', 'x.md']);

function checkWellFormed(result: ParseResult, reply: string): void {
  const lineCount = reply.split(/\r\n|\r|\n/).length;
  result.edits.forEach((e, i) => {
    expect(e.index).toBe(i);
    expect(e.path.length).toBeGreaterThan(0);
    const texts = e.kind === 'replace' ? [e.search, e.replace] : [];
    for (const t of texts) expect(t === '' || t.endsWith('\n')).toBe(true);
  });
  for (const p of result.problems) {
    expect(p.line).toBeGreaterThanOrEqual(1);
    expect(p.line).toBeLessThanOrEqual(lineCount);
    expect(p.message.length).toBeGreaterThan(0);
  }
}

describe('parse fuzz', () => {
  it('never throws on random replies and returns well-formed results', () => {
    fc.assert(
      fc.property(fc.constantFrom(...formats), replyArb, filesArb, (format, reply, chatFiles) => {
        checkWellFormed(parseReply(format, reply, { chatFiles }), reply);
      }),
      { numRuns: 4000 },
    );
  });

  it('never throws on mutated realistic replies', () => {
    fc.assert(
      fc.property(fc.constantFrom(...formats), mutatedArb, filesArb, (format, reply, chatFiles) => {
        checkWellFormed(parseReply(format, reply, { chatFiles }), reply);
      }),
      { numRuns: 4000 },
    );
  });

  it('never throws on arbitrary unicode text', () => {
    fc.assert(
      fc.property(fc.constantFrom(...formats), fc.string({ unit: 'binary', maxLength: 300 }), (format, reply) => {
        checkWellFormed(parseReply(format, reply, { chatFiles: ['a.py'] }), reply);
      }),
      { numRuns: 2000 },
    );
  });
});
