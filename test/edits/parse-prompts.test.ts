// The prompt files: present, within the token budget, and their worked examples parse cleanly
// with the matching parser (an example the parser rejects would teach the model a wrong shape).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { get_encoding } from 'tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import { parseReply } from '../../src/coders/registry.js';
import type { EditFormat } from '../../src/edits/types.js';

const promptsRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'prompts');
const read = (folder: string, file: string): string =>
  readFileSync(path.join(promptsRoot, folder, file), 'utf8').replaceAll('{fence}', '```').replaceAll('{platform}', 'Linux, bash');

/** Splits examples.md as documented in prompts/README.md. */
function turns(text: string): { role: string; content: string }[] {
  const out: { role: string; content: string }[] = [];
  for (const line of text.split('\n')) {
    const head = /^#### (user|assistant)$/.exec(line);
    if (head?.[1] !== undefined) out.push({ role: head[1], content: '' });
    else if (out.length > 0) out[out.length - 1]!.content += `${line}\n`;
  }
  return out.map((t) => ({ ...t, content: t.content.trim() }));
}

const enc = get_encoding('o200k_base');
afterAll(() => enc.free());
const tokens = (folder: string): number =>
  ['system.md', 'examples.md', 'reminder.md'].reduce((n, f) => n + enc.encode_ordinary(read(folder, f)).length, 0);

const formats: EditFormat[] = ['diff', 'diff-fenced', 'whole', 'udiff'];

describe('prompt files', () => {
  it('keeps the diff format under 850 tokens', () => {
    expect(tokens('diff')).toBeLessThan(850);
  });

  it.each([...formats, 'ask'])('%s has alternating example turns, user first, assistant last', (folder) => {
    const t = turns(read(folder, 'examples.md'));
    expect(t.length).toBeGreaterThanOrEqual(2);
    t.forEach((turn, i) => {
      expect(turn.role).toBe(i % 2 === 0 ? 'user' : 'assistant');
      expect(turn.content).not.toBe('');
    });
    expect(t[t.length - 1]?.role).toBe('assistant');
    expect(read(folder, 'reminder.md').trim()).not.toBe('');
  });

  it.each(formats)('the %s examples parse into edits with no problems', (format) => {
    const replies = turns(read(format, 'examples.md')).filter((t) => t.role === 'assistant');
    for (const reply of replies) {
      const result = parseReply(format, reply.content, { chatFiles: ['src/greet.py'] });
      expect(result.problems).toEqual([]);
      expect(result.edits.length).toBeGreaterThan(0);
      expect(result.edits[0]?.path).toBe('src/greet.py');
    }
  });
});
