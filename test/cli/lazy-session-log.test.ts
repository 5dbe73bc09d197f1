import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LazySessionLog, type LoggedChat } from '../../src/cli/session-files.js';
import { sessionsDir, type LogEntry } from '../../src/session/session-log.js';
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
});
