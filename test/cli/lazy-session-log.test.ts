import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LazySessionLog, recordingEmit, sessionMetaOf, type LoggedChat } from '../../src/cli/session-files.js';
import type { SessionEvent } from '../../src/session/events.js';
import { sessionsDir, type LogEntry } from '../../src/session/session-log.js';
import { FakeClock, MemoryFileSystem } from '../support/fake-platform.js';
import { tempDir } from '../support/temp-repo.js';

const metaOf = (chat: LoggedChat): Extract<LogEntry, { type: 'meta' }> => ({
  type: 'meta', id: '20261201-090000-abcd', version: '0.1.0', created: '2026-12-01T09:00:00Z', model: 'm', editFormat: 'diff', ...chat,
});

function lines(root: string): LogEntry[] {
  const [file] = readdirSync(sessionsDir(root));
  return readFileSync(join(sessionsDir(root), file!), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as LogEntry);
}

describe('the lazy session log', () => {
  it('writes no file until something is recorded', () => {
    const root = tempDir();
    new LazySessionLog(root, metaOf);
    expect(existsSync(sessionsDir(root))).toBe(false);
  });

  it('describes the chat files of a first files entry in its first line', () => {
    const root = tempDir();
    const log = new LazySessionLog(root, metaOf);
    log.record({ type: 'files', chat: ['a.py'], readOnly: ['R.md'] });
    log.record({ type: 'message', role: 'user', content: 'q' });
    expect(lines(root)).toEqual([
      metaOf({ files: ['a.py'], readOnly: ['R.md'] }),
      { type: 'files', chat: ['a.py'], readOnly: ['R.md'] },
      { type: 'message', role: 'user', content: 'q' },
    ]);
  });

  it('describes a chat without files when the first entry is no files entry', () => {
    const root = tempDir();
    const log = new LazySessionLog(root, metaOf);
    log.record({ type: 'message', role: 'user', content: 'q' });
    log.record({ type: 'files', chat: ['b.py'], readOnly: [] });
    expect(lines(root)[0]).toEqual(metaOf({ files: [], readOnly: [] }));
  });

  it("stamps its first line with the clock's time when the line is written, not when tandem started", () => {
    const clock = new FakeClock('2026-03-04T05:06:07.000Z');
    const fs = new MemoryFileSystem();
    const log = new LazySessionLog('/repo', sessionMetaOf(clock, { version: '1.2.3', model: 'm', editFormat: 'diff', interactive: true }), null, () => {}, fs);
    clock.advance(90_000);
    log.record({ type: 'message', role: 'user', content: 'q' });
    const [file, text] = [...fs.files][0] ?? ['', ''];
    expect(file).toMatch(/^\/repo\/\.tandem\/sessions\/20260304-050737-[0-9a-z]{4}\.jsonl$/);
    const [meta, message] = text.trimEnd().split('\n').map((line: string) => JSON.parse(line) as LogEntry);
    expect(meta).toMatchObject({ type: 'meta', created: '2026-03-04T05:07:37.000Z', version: '1.2.3', files: [], interactive: true });
    expect(message).toEqual({ type: 'message', role: 'user', content: 'q' });
  });

  it('says once that the disk is full and then records nothing more, so the log never has holes', () => {
    const fs = new MemoryFileSystem();
    const warnings: string[] = [];
    const log = new LazySessionLog('/repo', metaOf, null, (message) => warnings.push(message), fs);
    log.record({ type: 'message', role: 'user', content: 'first' });
    fs.failAppends = 'ENOSPC';
    log.record({ type: 'message', role: 'assistant', content: 'lost' });
    fs.failAppends = null;
    log.record({ type: 'message', role: 'user', content: 'after' });
    expect(warnings).toEqual([expect.stringContaining('no space left on device')]);
    const [text] = [...fs.files.values()];
    expect(text).toContain('first');
    expect(text).not.toContain('after');
  });
});

describe('the transcript', () => {
  it("heads each session with the clock's time and keeps the chat going when it cannot be written", () => {
    const clock = new FakeClock('2026-07-08T09:10:11.000Z');
    const fs = new MemoryFileSystem();
    const shown: SessionEvent[] = [];
    const emit = recordingEmit((event) => shown.push(event), { record: () => {} }, '/repo/.tandem/chat.history.md', clock, fs);
    emit({ type: 'session', model: 'm', editFormat: 'diff', files: [], readOnly: [] });
    emit({ type: 'user', text: 'hello', mode: 'code' });
    expect(fs.files.get('/repo/.tandem/chat.history.md')).toBe('\n# tandem session 2026-07-08T09:10:11.000Z (m, diff)\n\n#### hello\n\n');
    fs.failAppends = 'EACCES';
    emit({ type: 'user', text: 'again', mode: 'code' });
    emit({ type: 'user', text: 'and again', mode: 'code' });
    expect(shown.filter((e) => e.type === 'warning')).toEqual([expect.objectContaining({ message: expect.stringContaining('permission denied') })]);
    expect(shown.filter((e) => e.type === 'user')).toHaveLength(3);
  });
});
