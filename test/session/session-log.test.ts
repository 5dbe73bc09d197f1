import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newSessionId, readSessionLog, replaySession, SessionLog, SessionLogError, sessionsDir, type LogEntry } from '../../src/session/session-log.js';
import { tempDir } from '../support/temp-repo.js';

const meta: Extract<LogEntry, { type: 'meta' }> = {
  type: 'meta', id: '20261130-060000-abcd', version: '0.1.0', created: '2026-11-30T06:00:00Z', model: 'm', editFormat: 'diff', files: ['a.py'], readOnly: [],
};

describe('session log', () => {
  it('names sessions by a sortable UTC timestamp and a short id', () => {
    expect(newSessionId(new Date('2026-11-30T06:05:09Z'), () => 0.5)).toMatch(/^20261130-060509-[0-9a-z]{4}$/);
  });

  it('replays messages, file changes, summaries and clears in order', () => {
    const entries: LogEntry[] = [
      meta,
      { type: 'message', role: 'user', content: 'q1' },
      { type: 'message', role: 'assistant', content: 'a1' },
      { type: 'message', role: 'user', content: 'q2' },
      { type: 'message', role: 'assistant', content: 'a2' },
      { type: 'summary', messages: [{ role: 'user', content: 'S' }, { role: 'assistant', content: 'Ok.' }], replaced: 2 },
      { type: 'files', chat: ['a.py', 'b.py'], readOnly: ['R.md'] },
    ];
    const replayed = replaySession(entries);
    expect(replayed.history.map((m) => m.content)).toEqual(['S', 'Ok.', 'q2', 'a2']);
    expect(replayed.chatFiles).toEqual(['a.py', 'b.py']);
    expect(replaySession([...entries, { type: 'clear' }]).history).toEqual([]);
  });

  it('repairs a torn last line and keeps everything before it', () => {
    const dir = sessionsDir(tempDir());
    const log = SessionLog.create(dir, meta);
    log.record({ type: 'message', role: 'user', content: 'hello' });
    appendFileSync(log.file, '{"type":"mess');
    const read = readSessionLog(log.file);
    expect(read.repaired).toMatch(/line 3/);
    expect(read.entries).toHaveLength(2);
    expect(readFileSync(log.file, 'utf8').endsWith('"hello"}\n')).toBe(true);
  });

  it('refuses a corrupt line in the middle and leaves the file as it was', () => {
    const file = join(sessionsDir(tempDir()), 'x.jsonl');
    mkdirSync(dirname(file), { recursive: true });
    const text = `${JSON.stringify(meta)}\nnot json\n${JSON.stringify({ type: 'clear' })}\n`;
    writeFileSync(file, text);
    expect(() => readSessionLog(file)).toThrow(SessionLogError);
    expect(() => readSessionLog(file)).toThrow(/x\.jsonl:2/);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
