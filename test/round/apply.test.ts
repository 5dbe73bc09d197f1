import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApplyError, applyPlanWithUndo, loadSnapshots } from '../../src/round/apply.js';
import { decodeFileBytes, encodeSnapshotText } from '../../src/edits/file-text.js';
import { planEdits } from '../../src/edits/plan.js';
import type { Edit } from '../../src/edits/types.js';

let root: string;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tandem-apply-')));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function rep(p: string, search: string, replace: string, index = 0): Edit {
  return { kind: 'replace', path: p, search, replace, index, source: '' };
}

async function run(edits: Edit[], chatFiles: string[] = []): Promise<{ touched: string[]; failures: string[] }> {
  const loaded = await loadSnapshots(root, [...edits.map((e) => e.path), ...chatFiles]);
  const plan = planEdits(edits, loaded.files, { chatFiles, refused: loaded.refused, root });
  const { touched } = await applyPlanWithUndo(root, plan);
  return { touched, failures: plan.failures.map((f) => f.reason) };
}

const read = (p: string): Promise<string> => fs.readFile(path.join(root, p), 'utf8');

describe('file-text', () => {
  it('round-trips CRLF, BOM and a missing final newline unchanged', () => {
    for (const raw of ['a\r\nb\r\n', '\uFEFFa\nb', '\uFEFFx\r\ny', '', 'one']) {
      const d = decodeFileBytes('f', Buffer.from(raw, 'utf8'));
      if (!d.ok) throw new Error('decode failed');
      expect(d.snapshot.text).not.toContain('\r');
      expect(encodeSnapshotText(d.snapshot.text ?? '', d.snapshot)).toBe(raw);
    }
  });

  it('refuses binary and oversized files', () => {
    expect(decodeFileBytes('f', Uint8Array.from([97, 0, 98]))).toMatchObject({ ok: false, reason: 'binary' });
    expect(decodeFileBytes('f', Uint8Array.from([0xc3, 0x28]))).toMatchObject({ ok: false, reason: 'binary' });
    expect(decodeFileBytes('f', new Uint8Array(11).fill(97), 10)).toMatchObject({ ok: false, reason: 'too_large' });
  });
});

describe('applyPlanWithUndo', () => {
  it('keeps CRLF and BOM when editing', async () => {
    await fs.writeFile(path.join(root, 'w.txt'), '\uFEFFone\r\ntwo\r\nthree\r\n');
    const { touched } = await run([rep('w.txt', 'two\n', 'TWO\nmore\n')]);
    expect(touched).toEqual(['w.txt']);
    expect(await read('w.txt')).toBe('\uFEFFone\r\nTWO\r\nmore\r\nthree\r\n');
  });

  it('keeps a missing final newline', async () => {
    await fs.writeFile(path.join(root, 'n.txt'), 'a\nb');
    await run([rep('n.txt', 'b\n', 'c\n')]);
    expect(await read('n.txt')).toBe('a\nc');
  });

  it('creates new files with parent folders and keeps the mode of existing ones', async () => {
    await fs.writeFile(path.join(root, 'run.sh'), 'echo 1\n', { mode: 0o755 });
    await fs.chmod(path.join(root, 'run.sh'), 0o755);
    const { touched } = await run([rep('deep/new/x.ts', '', 'x\n'), rep('run.sh', 'echo 1\n', 'echo 2\n', 1)]);
    expect(touched.sort()).toEqual(['deep/new/x.ts', 'run.sh']);
    expect(await read('deep/new/x.ts')).toBe('x\n');
    expect((await fs.stat(path.join(root, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect((await fs.readdir(root)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a symlink pointing outside and never writes through it', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'tandem-out-'));
    try {
      await fs.writeFile(path.join(outside, 'target'), 'keep\n');
      await fs.symlink(path.join(outside, 'target'), path.join(root, 'link'));
      const { touched, failures } = await run([rep('link', 'keep\n', 'changed\n')]);
      expect(touched).toEqual([]);
      expect(failures).toEqual(['outside_repo']);
      expect(await fs.readFile(path.join(outside, 'target'), 'utf8')).toBe('keep\n');
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('writes through a symlink inside the repository and keeps the link', async () => {
    await fs.writeFile(path.join(root, 'real.txt'), 'a\n');
    await fs.symlink('real.txt', path.join(root, 'alias.txt'));
    await run([rep('alias.txt', 'a\n', 'b\n')]);
    expect((await fs.lstat(path.join(root, 'alias.txt'))).isSymbolicLink()).toBe(true);
    expect(await read('real.txt')).toBe('b\n');
  });

  it('refuses binary files', async () => {
    await fs.writeFile(path.join(root, 'b.bin'), Buffer.from([1, 0, 2]));
    const { failures } = await run([rep('b.bin', 'x\n', 'y\n')]);
    expect(failures).toEqual(['binary']);
  });

  it('writes nothing when a file changed since planning', async () => {
    await fs.writeFile(path.join(root, 'a.txt'), 'a\n');
    await fs.writeFile(path.join(root, 'b.txt'), 'b\n');
    const loaded = await loadSnapshots(root, ['a.txt', 'b.txt']);
    const plan = planEdits([rep('a.txt', 'a\n', 'A\n'), rep('b.txt', 'b\n', 'B\n', 1)], loaded.files, { chatFiles: [] });
    await fs.writeFile(path.join(root, 'b.txt'), 'changed\n');
    await expect(applyPlanWithUndo(root, plan)).rejects.toBeInstanceOf(ApplyError);
    expect(await read('a.txt')).toBe('a\n');
  });

  it('skips files whose bytes would not change', async () => {
    await fs.writeFile(path.join(root, 'same.txt'), 'x\n');
    const { touched } = await run([rep('same.txt', 'x\n', 'x\n')]);
    expect(touched).toEqual([]);
  });
});
