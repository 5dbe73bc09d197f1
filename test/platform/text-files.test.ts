import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { readConfinedText } from '../../src/platform/text-files.js';

let root: string;
let outside: string;
beforeEach(() => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-read-')));
  root = join(base, 'repo');
  outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  writeFileSync(join(root, 'a.txt'), '\uFEFFone\r\ntwo\n');
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, 'sub', 'b.txt'), 'b\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'out-link'));
  symlinkSync(join(root, 'sub', 'b.txt'), join(root, 'in-link'));
  symlinkSync('/dev/zero', join(root, 'zero'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  writeFileSync(join(root, 'huge'), 'x');
  truncateSync(join(root, 'huge'), 8 * 1024 ** 3);
});

describe('readConfinedText', () => {
  it.each([
    ['a.txt', { ok: true, text: 'one\ntwo\n' }],
    ['in-link', { ok: true, text: 'b\n' }],
    ['missing.txt', { ok: false, kind: 'missing' }],
    ['out-link', { ok: false, kind: 'outside_repo' }],
    ['zero', { ok: false, kind: 'outside_repo' }],
    ['fifo', { ok: false, kind: 'not_regular' }],
    ['sub', { ok: false, kind: 'not_regular' }],
    ['huge', { ok: false, kind: 'too_large' }],
  ])('inside the repository: %s', (name, expected) => {
    expect(readConfinedText(join(root, name), { root })).toMatchObject(expected);
  });

  it('without a root (a file the user named) it may lie outside, but is still a regular file under the cap', () => {
    expect(readConfinedText(join(root, 'out-link'))).toMatchObject({ ok: true, text: 'secret\n' });
    expect(readConfinedText('/dev/zero')).toMatchObject({ ok: false, kind: 'not_regular' });
  });

  it('reads only the first bytes of a huge file when asked to cut it', () => {
    const read = readConfinedText(join(root, 'huge'), { root, maxBytes: 1000, truncate: true });
    expect(read).toMatchObject({ ok: true, truncated: true, size: 8 * 1024 ** 3 });
    expect(read.ok && read.text.length).toBe(1000);
  });
});
