// "Adding an edit format" (README, development): a toy format defined here, in one object plus its
// prompts, registered beside the built-in coders, and a reply in it parsed and landed by the session's
// normal path (loader -> request -> the round's parse, plan, write, commit -> reflection).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineCoder } from '../../src/coders/coder.js';
import { createPromptLoader } from '../../src/coders/prompt-set.js';
import { BUILT_IN_CODERS, createCoderRegistry } from '../../src/coders/registry.js';
import type { Edit, ParseContext, ParseProblem, ParseResult } from '../../src/edits/types.js';
import { createPromptReader } from '../../src/platform/prompt-files.js';
import { createTestSession } from '../support/test-session.js';

// The format: each changed file in full, between a line `=== PATH` and a line `=== end`.
function parseToy(reply: string, _context: ParseContext): ParseResult {
  const edits: Edit[] = [];
  const problems: ParseProblem[] = [];
  const lines = reply.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const path = /^=== (\S+)$/.exec(lines[i]!)?.[1];
    if (!path || path === 'end') continue;
    const end = lines.indexOf('=== end', i + 1);
    if (end < 0) {
      problems.push({ message: `the listing of ${path} has no "=== end" line`, line: i + 1 });
      break;
    }
    const content = `${lines.slice(i + 1, end).join('\n')}\n`;
    edits.push({ kind: 'whole', path, content, index: edits.length, source: lines.slice(i, end + 1).join('\n') });
    i = end;
  }
  return { edits, shellCommands: [], problems };
}

// The coder: what coders/formats/toy.ts would hold. The rest (prompt set, edits flag, --edit-format) follows.
const toyCoder = defineCoder({ name: 'toy', parse: parseToy });

// Its prompts/ folder: the rules, and the one reflection it words its own way.
const TOY_PROMPTS: Record<string, string> = {
  'toy/system.md': 'Write each file you change in full between a line `=== PATH` and a line `=== end`. User platform: {platform}\n',
  'toy/reflection/parse-problems.md': 'Some of your toy listings were cut off:\n\n{problems}\n\nSend those files again, each ending with `=== end`.\n',
};

const PROMPTS = fileURLToPath(new URL('../../prompts', import.meta.url));

function start(turns: string[]) {
  const registry = createCoderRegistry([...BUILT_IN_CODERS, toyCoder]);
  const real = createPromptReader(PROMPTS);
  const prompts = createPromptLoader(async (id) => TOY_PROMPTS[id] ?? real(id), { fence: '```', platform: 'linux' });
  const t = createTestSession({
    files: { 'app.py': 'def total(xs):\n    return sum(xs)\n' },
    chat: ['app.py'],
    replies: turns,
    settings: { 'edit-format': 'toy', 'editor-edit-format': 'toy' },
    coders: registry,
    prompts,
  });
  return { registry, ...t };
}

const LISTING = '=== app.py\ndef total(xs):\n    return sum(xs) or 0\n=== end\n';

describe('an edit format added in one object and its prompts', () => {
  it('is registered like the built-in ones: an --edit-format choice that edits', () => {
    const { registry } = start([]);
    expect(registry.editFormatChoices).toEqual(['diff', 'diff-fenced', 'whole', 'udiff', 'toy', 'ask']);
    expect(registry.get('toy').parse(`Here:\n${LISTING}`, { chatFiles: ['app.py'] }).edits).toEqual([
      expect.objectContaining({ kind: 'whole', path: 'app.py', content: 'def total(xs):\n    return sum(xs) or 0\n' }),
    ]);
  });

  it('teaches the model with its prompts, and its reply lands and is committed', async () => {
    const t = start([`Done.\n\n${LISTING}`]);
    expect((await t.session.runRequest('make total safe')).status).toBe('completed');
    expect(t.model.requests[0]?.messages[0]?.content).toContain('between a line `=== PATH` and a line `=== end`');
    expect(t.read('app.py')).toBe('def total(xs):\n    return sum(xs) or 0\n');
    expect(t.git.commits).toEqual([expect.objectContaining({ paths: ['app.py'], message: 'feat: scripted change', user: false })]);
    expect(t.events.filter((e) => e.type === 'edit')).toEqual([expect.objectContaining({ path: 'app.py', status: 'applied' })]);
  });

  it('words its own reflection when a reply is malformed, then lands the fixed one', async () => {
    const t = start(['=== app.py\ndef total(xs):\n', LISTING]);
    expect((await t.session.runRequest('make total safe')).status).toBe('completed');
    expect(t.model.lastUserMessage(1)).toContain('Some of your toy listings were cut off');
    expect(t.model.lastUserMessage(1)).toContain('the listing of app.py has no "=== end" line');
    expect(t.read('app.py')).toBe('def total(xs):\n    return sum(xs) or 0\n');
  });
});
