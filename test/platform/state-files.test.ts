import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStateReader, readStateFile } from '../../src/platform/state-files.js';
import { tempDir } from '../support/temp-repo.js';

describe('the confined state reader', () => {
  it('reads a plain file under .tandem/ and refuses links, FIFOs, devices, big files and paths elsewhere, without blocking', () => {
    const root = tempDir();
    const state = join(root, '.tandem');
    mkdirSync(join(state, 'sessions'), { recursive: true });
    writeFileSync(join(state, 'maps.cache'), 'ok');
    writeFileSync(join(root, 'outside.txt'), 'secret');
    symlinkSync('/dev/zero', join(state, 'zero'));
    symlinkSync(join(root, 'outside.txt'), join(state, 'link'));
    execFileSync('mkfifo', [join(state, 'fifo')]);
    writeFileSync(join(state, 'big'), 'x'.repeat(100));
    const other = tempDir();
    mkdirSync(join(other, 'sessions'));
    writeFileSync(join(other, 'sessions', 'a.jsonl'), '{}');
    const linkedRoot = tempDir();
    symlinkSync(other, join(linkedRoot, '.tandem'));

    const read = (file: string, cap = 1000): string => {
      const result = readStateFile(root, file, cap);
      return result.ok ? `ok:${result.data.toString()}` : result.missing ? 'missing' : result.message;
    };
    expect(read(join(state, 'maps.cache'))).toBe('ok:ok');
    expect(read(join(state, 'nothing'))).toBe('missing');
    expect(read(join(state, 'zero'))).toMatch(/symbolic link/);
    expect(read(join(state, 'link'))).toMatch(/symbolic link/);
    expect(read(join(state, 'fifo'))).toMatch(/not a regular file/);
    expect(read(join(state, 'big'), 10)).toMatch(/100 bytes, over the 10-byte limit/);
    expect(read(join(root, 'outside.txt'))).toMatch(/not under \.tandem/);
    expect(read(join(state, '..', 'outside.txt'))).toMatch(/not under \.tandem/);
    const viaLink = readStateFile(linkedRoot, join(linkedRoot, '.tandem', 'sessions', 'a.jsonl'), 1000);
    expect(viaLink.ok ? 'read' : viaLink.message).toMatch(/\.tandem is a symbolic link/);
  });

  it('never reads a file git tracks, and warns once about any other refusal', () => {
    const root = tempDir();
    mkdirSync(join(root, '.tandem'));
    writeFileSync(join(root, '.tandem', 'maps.cache'), 'planted');
    execFileSync('mkfifo', [join(root, '.tandem', 'tags.cache')]);
    const warnings: string[] = [];
    const reader = createStateReader(root, { tracked: new Set(['.tandem/maps.cache']), warn: (m) => warnings.push(m) });
    expect(reader.read(join(root, '.tandem', 'maps.cache'), 1000).ok).toBe(false);
    expect(reader.usable(join(root, '.tandem', 'maps.cache'))).toBe(false);
    reader.read(join(root, '.tandem', 'tags.cache'), 1000);
    reader.read(join(root, '.tandem', 'tags.cache'), 1000);
    expect(warnings).toEqual(['.tandem/tags.cache is ignored: it is not a regular file (a FIFO, device or folder)']);
  });
});
