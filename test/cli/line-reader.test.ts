import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliEnvironment } from '../../src/cli/cli-environment.js';
import { loadHistory } from '../../src/cli/input-history.js';
import { createLineReader } from '../../src/cli/line-reader.js';
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

  it('offers the saved history to Up arrow when the file is only known after the prompt first opened', async () => {
    const dir = tempDir();
    const file = join(dir, '.tandem', 'input.history');
    mkdirSync(join(dir, '.tandem'));
    writeFileSync(file, 'saved request\n');
    const t = terminal(true);
    const lines = createLineReader(t.environment, true);
    const first = lines.read('> ');
    t.stdin.write('typed now\r');
    expect(await first).toBe('typed now');
    lines.configure({ historyFile: file });
    expect(lines.history()).toEqual(['typed now', 'saved request']);
    const second = lines.read('> ');
    t.stdin.write('\u001b[A\u001b[A\r');
    expect(await second).toBe('saved request');
    lines.close();
  });

  it('redraw empties the half-typed line and shows the prompt again', async () => {
    const t = terminal(true);
    const lines = createLineReader(t.environment, true);
    const next = lines.read('> ');
    t.stdin.write('half typed');
    await t.showing('half typed');
    lines.redraw();
    t.stdin.write('fresh\r');
    expect(await next).toBe('fresh');
    lines.close();
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

  it('queues a line typed while no prompt is shown and never takes it as the answer to a question', async () => {
    const t = terminal(true);
    const lines = createLineReader(t.environment, true);
    const first = lines.read('> ');
    t.stdin.write('do the work\r');
    expect(await first).toBe('do the work');
    // The model works: nothing waits for a line, so "y" and Enter are type-ahead.
    t.stdin.write('y\r');
    await t.showing('queued: y\n');
    const answer = lines.ask('Allow it?', ['yes', 'no', 'all', 'never'], 'no');
    await t.showing("Allow it? (y)es/(n)o/(a)ll/(d)on't ask again [no] ");
    t.stdin.write('x');
    t.stdin.write('a');
    expect(await answer).toBe('all');
    expect(t.shown()).toContain('[no] all\n');
    const enter = lines.ask('Again?', ['yes', 'no'], 'yes');
    t.stdin.write('\r');
    expect(await enter).toBe('yes');
    // The queued line comes back as the next input, shown after its prompt.
    expect(await lines.read('> ')).toBe('y');
    expect(t.shown()).toContain('> y\n');
    lines.close();
  });

  it('keeps a half-typed line for the next prompt and clears the queue on request', async () => {
    const t = terminal(true);
    const lines = createLineReader(t.environment, true);
    const first = lines.read('> ');
    t.stdin.write('start\r');
    await first;
    t.stdin.write('queued one\r');
    await t.showing('queued: queued one');
    t.stdin.write('half');
    expect(lines.clearQueue()).toBe(2);
    t.stdin.write('new\r');
    expect(await lines.read('> ')).toBe('new');
    const next = lines.read('> ');
    t.stdin.write('parti');
    t.stdin.write('al\r');
    expect(await next).toBe('partial');
    lines.close();
  });

  it('answers no on Ctrl-C during a question and tells the interrupt handlers', async () => {
    const t = terminal(true);
    const lines = createLineReader(t.environment, true);
    let interrupts = 0;
    lines.onInterrupt(() => interrupts++);
    const answer = lines.ask('Run it?', ['yes', 'no'], 'yes');
    t.stdin.write('\u0003');
    expect(await answer).toBe('no');
    expect(interrupts).toBe(1);
    lines.close();
  });

  it('ends the prompt line on Ctrl-D, so the shell prompt starts on its own line', async () => {
    const t = terminal(true);
    const lines = createLineReader(t.environment, true);
    const next = lines.read('> ');
    t.stdin.write('\u0004');
    expect(await next).toBeNull();
    expect(t.shown()).toMatch(/> (\u001b\[\d*G)?\n\u001b\[\?2004l$/);
  });

  it('returns null at the end of input', async () => {
    const t = terminal(false);
    const lines = createLineReader(t.environment, false);
    const next = lines.read('');
    t.stdin.end();
    expect(await next).toBeNull();
  });
});
