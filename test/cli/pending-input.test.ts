import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputHistory } from '../../src/cli/input-history.js';
import { PendingInput } from '../../src/cli/pending-input.js';
import { tempDir } from '../support/temp-repo.js';

describe('pending input', () => {
  it('queues a line nobody waits for, and hands the next one to a waiting reader', async () => {
    const pending = new PendingInput();
    expect(pending.deliver('early')).toBe(false);
    expect(pending.size).toBe(1);
    expect(pending.next()).toBe('early');
    let shown = false;
    const line = pending.wait(() => (shown = true));
    expect([shown, pending.isWaiting]).toEqual([true, true]);
    expect(pending.deliver('typed')).toBe(true);
    expect(await line).toBe('typed');
    expect(pending.isWaiting).toBe(false);
  });

  it('gives a waiting reader null when the input ends, and forgets queued lines on clear', async () => {
    const pending = new PendingInput();
    const line = pending.wait(() => {});
    pending.end();
    expect(await line).toBeNull();
    pending.deliver('a');
    pending.deliver('b');
    expect(pending.clear()).toBe(2);
    expect(pending.next()).toBeUndefined();
  });
});

describe('the input history file', () => {
  it('appends typed lines once, not blanks nor a repeat, and loads them behind this run\'s lines', () => {
    const file = join(tempDir(), '.tandem', 'input.history');
    const history = new InputHistory();
    history.save('before any file');
    history.use(file);
    for (const line of ['/add a.py', '/add a.py', '  ', 'fix it']) history.save(line);
    expect(readFileSync(file, 'utf8')).toBe('/add a.py\nfix it\n');
    const readline = ['typed now', 'fix it'];
    history.loadInto(readline);
    expect(readline).toEqual(['typed now', 'fix it', '/add a.py']);
  });
});
