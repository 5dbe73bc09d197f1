// The append-only prompt layout: each request starts with the previous one byte for byte, chat files
// travel once in full and then as diffs that turn the model's copy into the current file, and a
// rebuilt conversation (drop, clear, summary, diffs outweighing the file) holds each file once.
import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { buildMessages, type BuiltMessages, type FileText } from '../../src/coders/messages.js';
import type { ChatMessage } from '../../src/model/types.js';
import { PromptLayout } from '../../src/session/prompt-layout.js';

const context = {
  chatFiles: 'These files are in the chat:\n{files}', noChatFiles: 'No files.', readOnly: 'RO:\n{files}', repoMap: 'MAP:\n{map}', ack: 'Ok.',
  fileChanges: 'Current state, as diffs:\n{changes}', mentioned: 'Definitions you mentioned:\n{definitions}',
};
const format = { system: 'RULES', examples: [{ role: 'user' as const, content: 'ex-q' }, { role: 'assistant' as const, content: 'ex-a' }], reminder: 'REMIND' };

function fileBody(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, i) => `def ${name}_${i}(value):\n    return value + ${i}\n`).join('\n');
}

/** A chat as the session runs it: files on "disk", a history, one layout per history array. */
class Chat {
  history: ChatMessage[] = [];
  readonly disk = new Map<string, string>();
  chatFiles: string[] = [];
  private layouts = new WeakMap<ChatMessage[], PromptLayout>();
  last: BuiltMessages | null = null;

  private layout(): PromptLayout {
    let layout = this.layouts.get(this.history);
    if (!layout) this.layouts.set(this.history, (layout = new PromptLayout()));
    return layout;
  }

  private files(): FileText[] {
    return this.chatFiles.map((path) => ({ path, text: this.disk.get(path) ?? '' }));
  }

  request(text: string, reply: string, mentioned = ''): BuiltMessages {
    const files = this.files();
    const turn = this.layout().next(this.history, files);
    const built = buildMessages({
      format, context, readOnlyFiles: [], repoMap: 'lib.py:\n| def helper()', conversation: turn.conversation,
      turn: { text, fullFiles: turn.fullFiles, changes: turn.changes, mentioned, noChatFiles: files.length === 0 },
    });
    this.layout().sent(this.history, turn, built.messages.at(-1)!);
    this.history.push({ role: 'user', content: text }, { role: 'assistant', content: reply });
    this.layout().replied(this.history, reply);
    this.last = built;
    return built;
  }
}

const serialize = (messages: readonly ChatMessage[]): string => JSON.stringify(messages);
const occurrences = (built: BuiltMessages, text: string): number =>
  built.messages.map((m) => m.content.split(text).length - 1).reduce((a, b) => a + b, 0);

function expectPrefix(previous: BuiltMessages, next: BuiltMessages): void {
  expect(next.messages.length).toBeGreaterThan(previous.messages.length);
  expect(serialize(next.messages).startsWith(serialize(previous.messages).slice(0, -1))).toBe(true);
  expect(serialize(next.messages.slice(0, previous.messages.length))).toBe(serialize(previous.messages));
}

describe('append-only prompt layout', () => {
  it('after an edit, the next prompt starts with the previous prompt and carries only the diff', () => {
    const chat = new Chat();
    const v0 = fileBody('alpha', 40);
    chat.disk.set('a.py', v0);
    chat.chatFiles = ['a.py'];
    const first = chat.request('rename alpha_3', 'SEARCH/REPLACE ...');
    expect(occurrences(first, v0)).toBe(1);

    const v1 = v0.replace('def alpha_3(value):', 'def alpha_three(value):');
    chat.disk.set('a.py', v1);
    const second = chat.request('now explain alpha_5', 'It adds five.');
    expectPrefix(first, second);
    const turn = second.messages.at(-1)!.content;
    expect(turn).toContain('Current state, as diffs:');
    expect(turn).not.toContain(v1);
    // The diff turns the model's copy into the file as it is now: SEARCH text from it matches.
    const diff = /```diff\n([\s\S]*?)```/.exec(turn)?.[1] ?? '';
    expect(applyPatch(v0, diff)).toBe(v1);

    const third = chat.request('thanks', 'You are welcome.');
    expectPrefix(second, third);
    expect(third.messages.at(-1)!.content).not.toContain('Current state');
  });

  it('sends a file added later in full in that request, still appending', () => {
    const chat = new Chat();
    chat.disk.set('a.py', fileBody('alpha', 5));
    chat.disk.set('b.py', fileBody('beta', 5));
    chat.chatFiles = ['a.py'];
    const first = chat.request('q1', 'a1');
    chat.chatFiles.push('b.py');
    const second = chat.request('q2', 'a2');
    expectPrefix(first, second);
    expect(second.messages.at(-1)!.content).toContain(fileBody('beta', 5));
    expect(occurrences(second, fileBody('alpha', 5))).toBe(1);
  });

  it('puts mentioned definitions in the request message, never before the conversation', () => {
    const chat = new Chat();
    chat.disk.set('a.py', fileBody('alpha', 5));
    chat.chatFiles = ['a.py'];
    const first = chat.request('q1', 'a1');
    const second = chat.request('what does get_db do?', 'a2', 'db.py:3: def get_db():');
    expectPrefix(first, second);
    expect(second.messages.findIndex((m) => m.content.includes('def get_db'))).toBe(second.messages.length - 1);
  });

  it('rebuilds after /drop, /clear or a summary with each chat file current text exactly once', () => {
    const chat = new Chat();
    const a0 = fileBody('alpha', 30);
    chat.disk.set('a.py', a0);
    chat.disk.set('b.py', fileBody('beta', 10));
    chat.chatFiles = ['a.py', 'b.py'];
    chat.request('q1', 'a1');
    const a1 = a0.replace('return value + 7', 'return value * 7');
    chat.disk.set('a.py', a1);
    chat.request('q2', 'a2');

    chat.chatFiles = ['a.py']; // /drop b.py
    const dropped = chat.request('q3', 'a3');
    expect(occurrences(dropped, a1)).toBe(1);
    expect(occurrences(dropped, a0)).toBe(0);
    expect(occurrences(dropped, fileBody('beta', 10))).toBe(0);
    expect(dropped.messages.some((m) => m.content.includes('Current state'))).toBe(false);
    expect(dropped.messages.map((m) => m.content)).toContain('q1');

    chat.history = [{ role: 'user', content: 'Summary: we renamed things.' }, { role: 'assistant', content: 'Ok.' }, ...chat.history.slice(-2)];
    const summarized = chat.request('q4', 'a4');
    expect(occurrences(summarized, a1)).toBe(1);
    expect(summarized.messages.map((m) => m.content)).not.toContain('q1');

    chat.history = []; // /clear
    const cleared = chat.request('q5', 'a5');
    expect(occurrences(cleared, a1)).toBe(1);
    expect(cleared.messages.filter((m) => /\bq\d\b/.test(m.content))).toHaveLength(1);
  });

  it('rebuilds once the diffs since the last full copy outweigh the file', () => {
    const chat = new Chat();
    let text = fileBody('gamma', 4);
    chat.disk.set('c.py', text);
    chat.chatFiles = ['c.py'];
    let previous = chat.request('q0', 'a0');
    let rebuilt: BuiltMessages | null = null;
    for (let i = 1; i <= 6 && rebuilt === null; i++) {
      text = text.replace(/return value \+ \d+/, `return value - ${i * 11}`).replace(`gamma_${i % 4}`, `gamma_${i % 4}x`);
      chat.disk.set('c.py', text);
      const next = chat.request(`q${i}`, `a${i}`);
      if (serialize(next.messages).startsWith(serialize(previous.messages).slice(0, -1))) previous = next;
      else rebuilt = next;
    }
    expect(rebuilt).not.toBeNull();
    expect(occurrences(rebuilt!, text)).toBe(1);
    expect(rebuilt!.messages.some((m) => m.content.includes('Current state'))).toBe(false);
  });

  it('starts over when a request got no recorded reply (history changed behind its back)', () => {
    const layout = new PromptLayout();
    const history: ChatMessage[] = [];
    const files = [{ path: 'a.py', text: 'x = 1\n' }];
    const turn = layout.next(history, files);
    layout.sent(history, turn, { role: 'user', content: 'sent' });
    history.push({ role: 'user', content: 'q' }, { role: 'assistant', content: 'r' }, { role: 'user', content: 'extra' }, { role: 'assistant', content: 'x' });
    layout.replied(history, 'x');
    const next = layout.next(history, files);
    expect(next.rebuilt).toBe(true);
    expect(next.fullFiles).toEqual(files);
    expect(next.conversation).toEqual(history);
  });
});
