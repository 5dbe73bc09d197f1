// The prompt layout a session log describes: each request's message as sent and its reply, so a resumed
// chat appends to the conversation the model last saw; anything the log cannot vouch for leaves none.
import { describe, expect, it } from 'vitest';
import { replaySession, type LogEntry } from '../../src/session/session-log.js';
import { logEntryProblem } from '../../src/session/log-entry-shape.js';
import { PromptLayout } from '../../src/session/prompt-layout.js';
import type { ChatMessage } from '../../src/model/types.js';

const meta: Extract<LogEntry, { type: 'meta' }> = {
  type: 'meta', id: '20261130-060000-abcd', version: '0.1.0', created: '2026-11-30T06:00:00Z', model: 'm', editFormat: 'diff', files: ['a.py'], readOnly: [],
};
const ask = (content: string, sent: string, files: Array<{ path: string; text: string }>, rebuilt: boolean): LogEntry => ({
  type: 'message', role: 'user', content, layout: { sent, files, rebuilt },
});
const answer = (content: string): LogEntry => ({ type: 'message', role: 'assistant', content });

describe('replaying the prompt layout', () => {
  it('appends each request as sent and its reply, with the copies of files the model received', () => {
    const replayed = replaySession([
      meta,
      ask('q1', 'FILES a.py v1 + q1', [{ path: 'a.py', text: 'v1' }], true),
      answer('a1'),
      ask('q2', 'DIFF a.py v2 + q2', [{ path: 'a.py', text: 'v2' }], false),
      answer('a2'),
      { type: 'amend', content: 'a2\n\n[tandem: noted]' },
    ]);
    expect(replayed.history.map((m) => m.content)).toEqual(['q1', 'a1', 'q2', 'a2\n\n[tandem: noted]']);
    expect(replayed.layout).toEqual({
      conversation: [
        { role: 'user', content: 'FILES a.py v1 + q1' },
        { role: 'assistant', content: 'a1' },
        { role: 'user', content: 'DIFF a.py v2 + q2' },
        { role: 'assistant', content: 'a2\n\n[tandem: noted]' },
      ],
      files: [{ path: 'a.py', text: 'v2' }],
    });
  });

  it('starts over from the plain history at a rebuilt request (after a summary)', () => {
    const replayed = replaySession([
      meta,
      ask('q1', 'S1', [{ path: 'a.py', text: 'v1' }], true),
      answer('a1'),
      { type: 'summary', messages: [{ role: 'user', content: 'S' }, { role: 'assistant', content: 'Ok.' }], replaced: 2 },
      ask('q2', 'S2', [{ path: 'a.py', text: 'v2' }], true),
      answer('a2'),
    ]);
    expect(replayed.layout?.conversation.map((m) => m.content)).toEqual(['S', 'Ok.', 'S2', 'a2']);
  });

  it('leaves no layout for what the log cannot vouch for', () => {
    const first = [meta, ask('q1', 'S1', [], true), answer('a1')];
    expect(replaySession(first).layout).not.toBeNull();
    // an older log: requests without their layout
    expect(replaySession([meta, { type: 'message', role: 'user', content: 'q1' }, answer('a1')]).layout).toBeNull();
    // a request that continues a conversation the log never started
    expect(replaySession([...first, { type: 'clear' }, ask('q2', 'S2', [], false), answer('a2')]).layout).toBeNull();
    // the last request got no reply (a crash): its note is not what the model saw
    expect(replaySession([...first, ask('q2', 'S2', [], false)]).layout).toBeNull();
    expect(replaySession([...first, ask('q2', 'S2', [], false), ask('q3', 'S3', [], false), answer('a3')]).layout).toBeNull();
  });

  it('checks the shape of a planted layout like any other entry', () => {
    expect(logEntryProblem(ask('q', 's', [{ path: 'a.py', text: 't' }], false))).toBeNull();
    expect(logEntryProblem({ type: 'message', role: 'user', content: 'q', layout: { sent: 1, files: [], rebuilt: false } })).toMatch(/layout/);
    expect(logEntryProblem({ type: 'message', role: 'assistant', content: 'a', layout: { sent: 's', files: [], rebuilt: true } })).toMatch(/layout/);
    expect(logEntryProblem({ type: 'message', role: 'user', content: 'q', layout: { sent: 's', files: [{ path: 'a' }], rebuilt: true } })).toMatch(/layout/);
    expect(logEntryProblem({ type: 'amend', content: 3 })).toMatch(/amend/);
  });

  it('lets a restored layout go on appending: the next turn sends only the diff', () => {
    const history: ChatMessage[] = [{ role: 'user', content: 'q1' }, { role: 'assistant', content: 'a1' }];
    const text = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const layout = new PromptLayout();
    layout.restore(history, { conversation: [{ role: 'user', content: 'S1' }, { role: 'assistant', content: 'a1' }], files: [{ path: 'a.py', text }] });
    const turn = layout.next(history, [{ path: 'a.py', text: text.replace('line 7', 'line seven') }]);
    expect(turn.rebuilt).toBe(false);
    expect(turn.conversation.map((m) => m.content)).toEqual(['S1', 'a1']);
    expect(turn.fullFiles).toEqual([]);
    expect(turn.changes.map((c) => c.path)).toEqual(['a.py']);
    layout.sent(history, turn, { role: 'user', content: 'S2' });
    expect(layout.pendingRecord(history)).toEqual({ sent: 'S2', files: [{ path: 'a.py', text: text.replace('line 7', 'line seven') }], rebuilt: false });
  });
});
