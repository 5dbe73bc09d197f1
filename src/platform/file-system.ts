// The one file-system port: every read, stat, write and listing tandem does outside src/platform/ goes
// through a FileSystem. The real one is node's fs (`nodeFileSystem`); tests pass a fake, or the real one
// with some methods swapped (`{ ...nodeFileSystem, rename: failing }`), to choose what a file holds, that a
// disk is full, or that the Nth write of a reply fails. Sync methods serve callers that are sync today
// (the session log, git's small checks); async ones serve the edit writer and the eval.
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import fs from 'node:fs/promises';
import { dirname } from 'node:path';
import { readConfinedText, type ConfinedRead, type ConfinedReadOptions } from './text-files.js';

export type { Dirent, Stats };

export interface FileSystem {
  // Sync.
  /** A text file, read as `readConfinedText` does: never throws, says why it refused. */
  readText(path: string, options?: ConfinedReadOptions): ConfinedRead;
  /** Appends to a file (never through a link), creating it and its folders; throws the system's error (ENOSPC, EACCES). */
  append(path: string, text: string): void;
  exists(path: string): boolean;
  statSync(path: string): Stats;
  /** Stats of the link itself, not what it points at. */
  lstatSync(path: string): Stats;
  /** Like lstatSync, but undefined when nothing is there. */
  lstatIfAnySync(path: string): Stats | undefined;
  /** Reads the file's first bytes into `buffer` (at most its length): the bytes read, or null when it cannot be read. */
  readHeadSync(path: string, buffer: Buffer): Buffer | null;
  realpathSync(path: string): string;
  readdirSync(path: string): string[];
  readFileSync(path: string): Buffer;
  /** Creates `path` exclusively (EEXIST when something, a link included, is there), with `mode` when given. */
  writeNewSync(path: string, data: string | Buffer, mode?: number): void;
  renameSync(from: string, to: string): void;
  /** Removes a file; nothing there is no error. */
  rmSync(path: string): void;
  /** Creates the folder and its missing parents, with `mode` when given. */
  mkdirSync(path: string, mode?: number): void;

  // Async.
  lstat(path: string): Promise<Stats>;
  stat(path: string): Promise<Stats>;
  realpath(path: string): Promise<string>;
  readFile(path: string): Promise<Buffer>;
  /** Creates the folder and its missing parents; returns the first folder created, if any. */
  mkdir(path: string): Promise<string | undefined>;
  /** Creates `path` exclusively (fails with EEXIST when it exists). */
  writeNew(path: string, data: string | Buffer): Promise<void>;
  /** Creates or replaces `path` (follows a link). */
  writeFile(path: string, data: string | Buffer): Promise<void>;
  /** Appends to `path`, creating it (follows a link, unlike `append`). */
  appendFile(path: string, text: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  copyFile(from: string, to: string): Promise<void>;
  /** Removes a file; nothing there is no error. */
  rm(path: string): Promise<void>;
  /** Removes a folder and everything in it; nothing there is no error. */
  removeTree(path: string): Promise<void>;
  /** Removes an empty folder (ENOTEMPTY otherwise). */
  rmdir(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  /** The entries of a folder, or of the whole tree under it when `recursive`. */
  readdirEntries(path: string, options?: { readonly recursive?: boolean }): Promise<Dirent[]>;
  /** A new folder named `prefix` plus six random characters. */
  makeTempDir(prefix: string): Promise<string>;
}

/** The part of the port a chat needs (its files' texts, its logs): what an in-memory fake implements. */
export type TextFileSystem = Pick<FileSystem, 'readText' | 'append' | 'exists'>;

export const nodeFileSystem: FileSystem = {
  readText: (path, options) => readConfinedText(path, options),
  append(path, text) {
    try {
      appendNoFollow(path, text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dirname(path), { recursive: true });
      appendNoFollow(path, text);
    }
  },
  exists: (path) => existsSync(path),
  statSync: (path) => statSync(path),
  lstatSync: (path) => lstatSync(path),
  lstatIfAnySync: (path) => lstatSync(path, { throwIfNoEntry: false }),
  readHeadSync(path, buffer) {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return null;
    }
    try {
      return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0));
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  },
  realpathSync: (path) => realpathSync(path),
  readdirSync: (path) => readdirSync(path),
  readFileSync: (path) => readFileSync(path),
  writeNewSync: (path, data, mode) => writeFileSync(path, data, mode === undefined ? { flag: 'wx' } : { flag: 'wx', mode }),
  renameSync: (from, to) => renameSync(from, to),
  rmSync: (path) => rmSync(path, { force: true }),
  mkdirSync: (path, mode) => void mkdirSync(path, mode === undefined ? { recursive: true } : { recursive: true, mode }),

  lstat: (path) => fs.lstat(path),
  stat: (path) => fs.stat(path),
  realpath: (path) => fs.realpath(path),
  readFile: (path) => fs.readFile(path),
  mkdir: (path) => fs.mkdir(path, { recursive: true }),
  writeNew: (path, data) => fs.writeFile(path, data, { flag: 'wx' }),
  writeFile: (path, data) => fs.writeFile(path, data),
  appendFile: (path, text) => fs.appendFile(path, text),
  chmod: (path, mode) => fs.chmod(path, mode),
  rename: (from, to) => fs.rename(from, to),
  copyFile: (from, to) => fs.copyFile(from, to),
  rm: (path) => fs.rm(path, { force: true }),
  removeTree: (path) => fs.rm(path, { recursive: true, force: true }),
  rmdir: (path) => fs.rmdir(path),
  readdir: (path) => fs.readdir(path),
  readdirEntries: (path, options) => fs.readdir(path, { withFileTypes: true, recursive: options?.recursive ?? false }),
  makeTempDir: (prefix) => fs.mkdtemp(prefix),
};

/**
 * Appends to a file, never through a symbolic link (ELOOP instead): a log checked at start may be swapped
 * for a link later by code tandem ran in the repository (a test suite, even a sandboxed one), and the next
 * line would land in the file it points at.
 */
export function appendNoFollow(path: string, text: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o666);
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
  } finally {
    closeSync(fd);
  }
}
