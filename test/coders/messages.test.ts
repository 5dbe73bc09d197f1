import { describe, expect, it } from 'vitest';
import { buildMessages, countParts, fenceFor, renderFiles, type MessageInput } from '../../src/coders/messages.js';
import { parseExamples } from '../../src/coders/prompt-files.js';
import { fillPlaceholders } from '../../src/platform/placeholders.js';

const input: MessageInput = {
  format: { system: 'RULES', examples: [{ role: 'user', content: 'ex-q' }, { role: 'assistant', content: 'ex-a' }], reminder: 'REMIND' },
  context: {
    chatFiles: 'FILES:\n{files}', noChatFiles: 'NO FILES', readOnly: 'RO:\n{files}', repoMap: 'MAP:\n{map}', ack: 'Ok.',
    fileChanges: 'CHANGED:\n{changes}', mentioned: 'DEFS:\n{definitions}',
  },
  readOnlyFiles: [{ path: 'CONVENTIONS.md', text: 'be nice\n' }],
  repoMap: 'lib.py:\n| def f()',
  conversation: [{ role: 'user', content: 'old q' }, { role: 'assistant', content: 'old a' }],
  turn: { text: 'do it', fullFiles: [{ path: 'a.py', text: 'x = 1\n' }], changes: [], mentioned: '', noChatFiles: false },
};

describe('request messages', () => {
  it('puts the fixed parts first, then the conversation, then one message for this turn', () => {
    const built = buildMessages(input);
    expect(built.parts.map((p) => p.name)).toEqual(['system prompt', 'examples', 'read-only files', 'repo map', 'history', 'chat files', 'request']);
    expect(built.messages.at(-1)).toEqual({ role: 'user', content: 'FILES:\na.py\n```\nx = 1\n```\n\ndo it\n\nREMIND' });
    expect(built.messages.at(-2)).toEqual({ role: 'assistant', content: 'old a' });
    expect(built.messages[0]).toEqual({ role: 'system', content: 'RULES' });
  });

  it('puts changes and mentioned definitions in the turn, before the request', () => {
    const turn = { ...input.turn, fullFiles: [], changes: [{ path: 'a.py', diff: '@@ -1 +1 @@\n-x = 1\n+x = 2\n' }], mentioned: 'lib.py:1: def f()' };
    const built = buildMessages({ ...input, turn });
    expect(built.parts.map((p) => p.name).slice(-3)).toEqual(['file changes', 'mentioned definitions', 'request']);
    expect(built.messages.at(-1)?.content).toBe('CHANGED:\na.py\n```diff\n@@ -1 +1 @@\n-x = 1\n+x = 2\n```\n\nDEFS:\nlib.py:1: def f()\n\ndo it\n\nREMIND');
  });

  it('can put the reminder in the system prompt instead', () => {
    const built = buildMessages({ ...input, reminderPlacement: 'system' });
    expect(built.messages[0]?.content).toBe('RULES\n\nREMIND');
    expect(built.messages.at(-1)?.content.endsWith('do it')).toBe(true);
  });

  it('says so when no file is in the chat, and leaves out an empty map', () => {
    const built = buildMessages({ ...input, turn: { ...input.turn, fullFiles: [], noChatFiles: true }, repoMap: '' });
    expect(built.parts.map((p) => p.name)).not.toContain('repo map');
    expect(built.messages.at(-1)?.content).toBe('NO FILES\n\ndo it\n\nREMIND');
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
