// The file system as the session and its log use it: confined, capped text reads and appends. The
// real one is node's fs; tests pass an in-memory one to choose what a file holds or that a disk is full.
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
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
      appendFileSync(path, text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dirname(path), { recursive: true });
      appendFileSync(path, text);
    }
  },
  exists: (path) => existsSync(path),
};
