// The file system as the session and its log use it: confined, capped text reads and appends. The
// real one is node's fs; tests pass an in-memory one to choose what a file holds or that a disk is full.
import { closeSync, constants, existsSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { readConfinedText, type ConfinedRead, type ConfinedReadOptions } from './text-files.js';

export interface FileSystem {
  /** A text file, read as `readConfinedText` does: never throws, says why it refused. */
  readText(path: string, options?: ConfinedReadOptions): ConfinedRead;
  /** Appends to a file, creating it and its folders; throws the system's error (ENOSPC, EACCES). */
  append(path: string, text: string): void;
  exists(path: string): boolean;
}

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
