import { describe, expect, it } from 'vitest';
import { buildMessages, countParts, fenceFor, renderFiles, type MessageInput } from '../../src/coders/messages.js';
import { parseExamples, fillPlaceholders } from '../../src/coders/prompt-files.js';

const input: MessageInput = {
  format: { system: 'RULES', examples: [{ role: 'user', content: 'ex-q' }, { role: 'assistant', content: 'ex-a' }], reminder: 'REMIND' },
  context: { chatFiles: 'FILES:\n{files}', noChatFiles: 'NO FILES', readOnly: 'RO:\n{files}', repoMap: 'MAP:\n{map}', ack: 'Ok.' },
  readOnlyFiles: [{ path: 'CONVENTIONS.md', text: 'be nice\n' }],
  repoMap: 'lib.py:\n| def f()',
  history: [{ role: 'user', content: 'old q' }, { role: 'assistant', content: 'old a' }],
  chatFiles: [{ path: 'a.py', text: 'x = 1\n' }],
  request: 'do it',
};

describe('request messages', () => {
  it('puts the fixed parts first, then history, then the changing parts', () => {
    const built = buildMessages(input);
    expect(built.parts.map((p) => p.name)).toEqual(['system prompt', 'examples', 'read-only files', 'repo map', 'history', 'chat files', 'request']);
    expect(built.messages.at(-1)).toEqual({ role: 'user', content: 'do it\n\nREMIND' });
    expect(built.messages[0]).toEqual({ role: 'system', content: 'RULES' });
  });

  it('can put the reminder in the system prompt instead', () => {
    const built = buildMessages({ ...input, reminderPlacement: 'system' });
    expect(built.messages[0]?.content).toBe('RULES\n\nREMIND');
    expect(built.messages.at(-1)?.content).toBe('do it');
  });

  it('says so when no file is in the chat, and leaves out an empty map', () => {
    const built = buildMessages({ ...input, chatFiles: [], repoMap: '' });
    expect(built.parts.map((p) => p.name)).not.toContain('repo map');
    expect(built.messages.some((m) => m.content === 'NO FILES')).toBe(true);
  });

  it('fences a file with a longer fence when it contains fences itself', () => {
    expect(fenceFor('plain')).toBe('```');
    expect(fenceFor('text\n```js\ncode\n```\n')).toBe('````');
    expect(renderFiles([{ path: 'r.md', text: '```\nx\n```' }])).toBe('r.md\n````\n```\nx\n```\n````');
  });

  it('counts tokens per part only when asked', () => {
    const parts = countParts(buildMessages(input), { count: (t) => t.length });
    expect(parts.find((p) => p.name === 'request')?.tokens).toBe('do it\n\nREMIND'.length + 4);
  });
});

describe('prompt files', () => {
  it('splits examples into alternating turns and fills only known placeholders', () => {
    const turns = parseExamples('comment\n#### user\nq {fence}\n\n#### assistant\na {name}\n');
    expect(turns).toEqual([{ role: 'user', content: 'q {fence}' }, { role: 'assistant', content: 'a {name}' }]);
    expect(fillPlaceholders('q {fence} {name}', { fence: '```' })).toBe('q ``` {name}');
  });
});
