// Multi-line input at the prompt: Meta-Enter adds a line and Enter sends; in multi-line mode the other
// way round. A watch trigger injected at the prompt is taken at once, and queued (and announced) while
// a request runs.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliEnvironment } from '../../src/cli/cli-environment.js';
import { createLineReader } from '../../src/cli/line-reader.js';
import type { WatchRequest } from '../../src/watch/watch-request.js';

function terminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
  let shown = '';
  stdout.on('data', (d: Buffer) => (shown += d.toString()));
  const environment = { stdin, stdout, stderr: new PassThrough() } as unknown as CliEnvironment;
  return { environment, stdin, shown: () => shown };
}

const request: WatchRequest = { mode: 'code', text: 'the request', files: ['a.py'], summary: 'a.py:3: do it AI!' };

describe('multi-line input', () => {
  it('Meta-Enter adds a line and Enter sends; multi-line mode swaps them', async () => {
    const t = terminal();
    const lines = createLineReader(t.environment, true);
    const plain = lines.read('> ');
    t.stdin.write('one\u001b\rtwo\r');
    expect(await plain).toBe('one\ntwo');
    lines.multiline = true;
    const multi = lines.read('multi> ');
    t.stdin.write('three\rfour\u001b\r');
    expect(await multi).toBe('three\nfour');
    lines.close();
  });

  it('takes a watch trigger at the prompt, and queues one that comes while a request runs', async () => {
    const t = terminal();
    const lines = createLineReader(t.environment, true);
    const waiting = lines.read('> ');
    lines.inject({ kind: 'watch', request });
    expect(await waiting).toEqual({ kind: 'watch', request });
    // Nobody is reading now (a request runs): the trigger waits, and says so.
    lines.inject({ kind: 'watch', request });
    expect(t.shown()).toContain('queued: AI comment a.py:3: do it AI!');
    expect(await lines.read('> ')).toEqual({ kind: 'watch', request });
    lines.close();
  });
});
