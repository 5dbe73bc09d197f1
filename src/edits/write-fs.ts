// The file operations the edit writer uses, as a port: the real one is node's fs; tests wrap it to
// fail the Nth write with a real error code and prove a reply still lands whole or not at all.
import fs from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';

export interface WriteFs {
  lstat(path: string): Promise<Stats>;
  stat(path: string): Promise<Stats>;
  realpath(path: string): Promise<string>;
  readFile(path: string): Promise<Buffer>;
  /** Creates the folder and its missing parents; returns the first folder created, if any. */
  mkdir(path: string): Promise<string | undefined>;
  /** Creates `path` exclusively (fails with EEXIST when it exists). */
  writeNew(path: string, data: string | Buffer): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string): Promise<void>;
  rmdir(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
}

export const nodeWriteFs: WriteFs = {
  lstat: (path) => fs.lstat(path),
  stat: (path) => fs.stat(path),
  realpath: (path) => fs.realpath(path),
  readFile: (path) => fs.readFile(path),
  mkdir: (path) => fs.mkdir(path, { recursive: true }),
  writeNew: (path, data) => fs.writeFile(path, data, { flag: 'wx' }),
  chmod: (path, mode) => fs.chmod(path, mode),
  rename: (from, to) => fs.rename(from, to),
  rm: (path) => fs.rm(path, { force: true }),
  rmdir: (path) => fs.rmdir(path),
  readdir: (path) => fs.readdir(path),
};

/** Removes `from` and its parents up to and including `top`, as long as they are empty. */
export async function removeEmptyFolders(fs: WriteFs, from: string, top: string): Promise<void> {
  for (let dir = from; dir.startsWith(top); dir = path.dirname(dir)) {
    try {
      await fs.rmdir(dir);
    } catch {
      return; // not empty: another file of this reply, or the user's, still lives there
    }
    if (dir === top) return;
  }
}
