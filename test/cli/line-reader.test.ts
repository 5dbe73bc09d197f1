import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliEnvironment } from '../../src/cli/cli-environment.js';
import { createLineReader, loadHistory } from '../../src/cli/line-reader.js';
import { tempDir } from '../support/temp-repo.js';

function terminal(tty: boolean) {
  const stdin = Object.assign(new PassThrough(), { isTTY: tty, setRawMode: () => stdin });
  const stdout = Object.assign(new PassThrough(), { isTTY: tty, columns: 100 });
  let shown = '';
  stdout.on('data', (d: Buffer) => (shown += d.toString()));
  const environment = { stdin, stdout, stderr: new PassThrough() } as unknown as CliEnvironment;
  /** Resolves once the terminal has shown `text` (no timers: on the output's own data events). */
  const showing = (text: string): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (!shown.includes(text)) return;
        stdout.off('data', check);
        resolve();
      };
      stdout.on('data', check);
      check();
    });
  return { environment, stdin, shown: () => shown, showing };
}

describe('line reader', () => {
  it('reads a { … } block as one input, on a terminal and from a pipe', async () => {
    for (const tty of [true, false]) {
      const t = terminal(tty);
      const lines = createLineReader(t.environment, tty);
      const first = lines.read('> ');
      t.stdin.write('{\rline one\r  line two\r}\rafter\r'.replace(/\r/g, tty ? '\r' : '\n'));
      expect(await first).toBe('line one\n  line two');
      expect(await lines.read('> ')).toBe('after');
      lines.close();
    }
  });

  it('keeps bracketed-paste text whole until Enter', async () => {
    const t = terminal(true);
    const lines = createLineReader(t.environment, true);
    const next = lines.read('> ');
    t.stdin.write('\u001b[200~first line\rsecond line\rthird\u001b[201~ and more\r');
    expect(await next).toBe('first line\nsecond line\nthird and more');
    expect(t.shown()).toContain('\u001b[?2004h');
    lines.close();
    expect(t.shown()).toContain('\u001b[?2004l');
  });

  it('loads history from the file and appends every line typed', async () => {
    const dir = tempDir();
    const file = join(dir, '.tandem', 'input.history');
    mkdirSync(join(dir, '.tandem'));
    writeFileSync(file, 'older request\nnewer request\n');
    const t = terminal(true);
    const lines = createLineReader(t.environment, true);
    lines.configure({ historyFile: file });
    const first = lines.read('> ');
    t.stdin.write('/add x.py\r');
    expect(await first).toBe('/add x.py');
    expect(lines.history()).toEqual(['/add x.py', 'newer request', 'older request']);
    // Up arrow twice recalls the request saved by an earlier session.
    const second = lines.read('> ');
    t.stdin.write('\u001b[A\u001b[A\r');
    expect(await second).toBe('newer request');
    lines.close();
    expect(readFileSync(file, 'utf8')).toBe('older request\nnewer request\n/add x.py\nnewer request\n');
    expect(loadHistory(file, 2)).toEqual(['newer request', '/add x.py']);
  });

  it('hands Tab to the configured completer', async () => {
    const t = terminal(true);
    const lines = createLineReader(t.environment, true);
    lines.configure({ completer: (line, callback) => callback(null, [line.startsWith('/ad') ? ['/add '] : [], line]) });
    const next = lines.read('> ');
    t.stdin.write('/ad');
    t.stdin.write('\t');
    await t.showing('/add ');
    t.stdin.write('file.py\r');
    expect(await next).toBe('/add file.py');
    lines.close();
  });

  it('returns null at the end of input', async () => {
    const t = terminal(false);
    const lines = createLineReader(t.environment, false);
    const next = lines.read('');
    t.stdin.end();
    expect(await next).toBeNull();
  });
});
