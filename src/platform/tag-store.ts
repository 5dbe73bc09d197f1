// The files of the user's shared tag cache (`--tag-cache-dir`, by default `$XDG_CACHE_HOME/tandem/tags`
// or `~/.cache/tandem/tags`): one small file per entry, named by a hex key, in folders by the key's
// first two characters. This module only stores and fetches bytes; what they mean is the caller's.
// The folder lies outside every repository, so no clone can plant an entry; still, an entry is read
// as the confined state files are (src/platform/state-files.ts): never through a link, never blocking
// on a FIFO, only a regular file of ours under a cap, and a refusal reads as absent.
import { openRegular, readRegularFile } from './state-files.js';
import { lstat, mkdir, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { closeSync, lstatSync, readdirSync, readSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** 512 MiB: about twenty 28 MB trees' worth of tags. */
export const DEFAULT_TAG_STORE_BYTES = 512 * 1024 * 1024;
/** No one file's tags come near this; an entry over it is not ours. */
export const MAX_ENTRY_BYTES = 32 * 1024 * 1024;
/** A hit refreshes the entry's time for the least-recently-used order at most this often. */
const TOUCH_AFTER_MS = 60 * 60 * 1000;
/** How often the folder is walked to drop the least recently used entries past the cap. */
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;
const PRUNE_MARKER = 'last-prune';
const KEY = /^[0-9a-f]{40}$/;
/** Packs (many entries in one file, see repomap/tag-pack.ts) live in this folder, named `<key>.pack`. */
const PACKS = 'packs';
const PACK_NAME = /^[0-9a-f]{40}\.pack$/;
/** A pack holds a checkout's tags; none comes near this. */
export const MAX_PACK_BYTES = 256 * 1024 * 1024;
/** Packs kept at most, the least recently used dropped first (each is looked at when a map starts). */
export const MAX_PACKS = 8;

export interface TagStoreOptions {
  readonly dir: string;
  /** Size cap in bytes (default DEFAULT_TAG_STORE_BYTES). */
  readonly maxBytes?: number;
  /** Milliseconds since the epoch (tests move it). */
  readonly now?: () => number;
}

export interface TagStore {
  readonly dir: string;
  /** The entry's bytes, or null when it is absent or refused (a link, a FIFO, not ours, too big). */
  read(key: string): Buffer | null;
  /**
   * Writes each entry atomically (temp file + rename); failures are ignored (it is a cache). `bytes`
   * may be a function, called just before its write (so not every entry is in memory at once);
   * an entry whose function gives null is skipped.
   */
  write(entries: readonly StoreEntry[]): Promise<void>;
  /** Drops the least recently used entries until the folder is under the cap; `force` ignores the daily schedule. */
  prune(force?: boolean): Promise<void>;
  /** The packs' names, most recently used first. */
  packs(): string[];
  /** An open pack to read ranges of (refused as read() refuses an entry); close it after. */
  openPack(name: string): PackFile | null;
  /** Writes a pack atomically under a new name. */
  writePack(bytes: Uint8Array): Promise<void>;
}

export interface PackFile {
  readonly size: number;
  /** Exactly `length` bytes at `start`, or null. */
  read(start: number, length: number): Buffer | null;
  close(): void;
}

/** The default folder: `$XDG_CACHE_HOME/tandem/tags` when that is an absolute path, else `<home>/.cache/tandem/tags`. */
export interface StoreEntry {
  readonly key: string;
  readonly bytes: Uint8Array | (() => Uint8Array | null);
}

export function defaultTagStoreDir(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const xdg = env['XDG_CACHE_HOME'];
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(homeDir, '.cache');
  return path.join(base, 'tandem', 'tags');
}

export function createTagStore(options: TagStoreOptions): TagStore {
  const { dir } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_TAG_STORE_BYTES;
  const now = options.now ?? (() => Date.now());
  const uid = typeof process.getuid === 'function' ? process.getuid() : -1;
  // Joined by hand: path.join per lookup showed in a second clone's thousands of reads.
  const base = path.join(dir, path.sep);
  const entryPath = (key: string): string => `${base}${key.slice(0, 2)}${path.sep}${key.slice(2)}`;
  const touched: string[] = [];

  const read = (key: string): Buffer | null => {
    if (!KEY.test(key)) return null;
    const file = entryPath(key);
    const got = readRegularFile(file, (st) => st.size <= MAX_ENTRY_BYTES && (uid < 0 || st.uid === uid));
    if (got === null) return null;
    if (now() - got.stat.mtimeMs > TOUCH_AFTER_MS) touched.push(file);
    return got.data;
  };

  const writeOne = async (key: string, bytes: Uint8Array): Promise<void> => {
    if (!KEY.test(key)) return;
    const file = entryPath(key);
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, bytes, { flag: 'wx', mode: 0o600 });
      await rename(temp, file);
    } catch {
      await rm(temp, { force: true }).catch(() => undefined);
    }
  };

  const write = async (list: readonly StoreEntry[]): Promise<void> => {
    const folders = new Set(list.map(({ key }) => key.slice(0, 2)));
    if (folders.size === 0 && touched.length === 0) return;
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await Promise.all([...folders].map((folder) => mkdir(path.join(dir, folder), { recursive: true, mode: 0o700 })));
    } catch {
      return;
    }
    // A few at a time: thousands of open files at once would run into the process's limit.
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < list.length) {
        const entry = list[next++];
        const bytes = typeof entry?.bytes === 'function' ? entry.bytes() : entry?.bytes;
        if (entry && bytes) await writeOne(entry.key, bytes);
      }
    };
    await Promise.all(Array.from({ length: 8 }, lane));
    // Entries read since the last write: their time moves forward, so they are the last to go.
    const stamp = new Date(now());
    for (const file of touched.splice(0)) await utimes(file, stamp, stamp).catch(() => undefined);
  };

  const prune = async (force = false): Promise<void> => {
    const marker = path.join(dir, PRUNE_MARKER);
    const last = await lstat(marker).catch(() => null);
    if (!force && last !== null && now() - last.mtimeMs < PRUNE_EVERY_MS) return;
    await mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => undefined);
    await writeFile(marker, '').catch(() => undefined);
    const files: { file: string; size: number; mtimeMs: number }[] = [];
    let total = 0;
    for (const folder of await readdir(dir).catch(() => [])) {
      if (!/^[0-9a-f]{2}$/.test(folder)) continue;
      for (const name of await readdir(path.join(dir, folder)).catch(() => [])) {
        const file = path.join(dir, folder, name);
        const st = await lstat(file).catch(() => null);
        if (st === null) continue;
        // A temp file older than an hour was left by a process that died mid-write.
        if (name.endsWith('.tmp') && now() - st.mtimeMs > TOUCH_AFTER_MS) {
          await rm(file, { force: true }).catch(() => undefined);
          continue;
        }
        files.push({ file, size: st.size, mtimeMs: st.mtimeMs });
        total += st.size;
      }
    }
    // Packs count toward the cap like entries; past MAX_PACKS the oldest go whatever the size.
    const packFiles: { file: string; size: number; mtimeMs: number }[] = [];
    for (const name of await readdir(packsDir).catch(() => [])) {
      const file = path.join(packsDir, name);
      const st = await lstat(file).catch(() => null);
      if (st === null) continue;
      if (!PACK_NAME.test(name)) {
        if (name.endsWith('.tmp') && now() - st.mtimeMs > TOUCH_AFTER_MS) await rm(file, { force: true }).catch(() => undefined);
        continue;
      }
      packFiles.push({ file, size: st.size, mtimeMs: st.mtimeMs });
    }
    packFiles.sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const pack of packFiles.splice(MAX_PACKS)) await rm(pack.file, { force: true }).catch(() => undefined);
    files.push(...packFiles);
    total += packFiles.reduce((sum, pack) => sum + pack.size, 0);
    if (total <= maxBytes) return;
    files.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const { file, size } of files) {
      if (total <= maxBytes) break;
      await rm(file, { force: true }).catch(() => undefined);
      total -= size;
    }
  };

  const packsDir = path.join(dir, PACKS);
  /** Every pack's name, most recently used first. */
  const packNames = (): string[] => {
    let names: string[];
    try {
      names = readdirSync(packsDir).filter((name) => PACK_NAME.test(name));
    } catch {
      return [];
    }
    const times = new Map(names.map((name) => [name, mtimeOf(path.join(packsDir, name))]));
    return names.sort((a, b) => (times.get(b) ?? 0) - (times.get(a) ?? 0));
  };
  const packs = (): string[] => packNames().slice(0, MAX_PACKS);

  const openPack = (name: string): PackFile | null => {
    if (!PACK_NAME.test(name)) return null;
    const file = path.join(packsDir, name);
    const fd = openRegular(file, (st) => st.size <= MAX_PACK_BYTES && (uid < 0 || st.uid === uid));
    if (fd === null) return null;
    if (now() - fd.stat.mtimeMs > TOUCH_AFTER_MS) touched.push(file);
    return {
      size: fd.stat.size,
      read: (start, length) => readRange(fd.fd, start, length),
      close: () => closeSync(fd.fd),
    };
  };

  const writePack = async (bytes: Uint8Array): Promise<void> => {
    try {
      await mkdir(packsDir, { recursive: true, mode: 0o700 });
    } catch {
      return;
    }
    const file = path.join(packsDir, `${randomBytes(20).toString('hex')}.pack`);
    const temp = `${file}.tmp`;
    try {
      await writeFile(temp, bytes, { flag: 'wx', mode: 0o600 });
      await rename(temp, file);
    } catch {
      await rm(temp, { force: true }).catch(() => undefined);
    }
    // Packs are big: past MAX_PACKS the least recently used goes now, not at the next daily prune.
    const all = packNames();
    for (const name of all.slice(MAX_PACKS)) await rm(path.join(packsDir, name), { force: true }).catch(() => undefined);
  };

  return { dir, read, write, prune, packs, openPack, writePack };
}

function mtimeOf(file: string): number {
  try {
    return lstatSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function readRange(fd: number, start: number, length: number): Buffer | null {
  try {
    const buffer = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buffer, done, length - done, start + done);
      if (n === 0) return null;
      done += n;
    }
    return buffer;
  } catch {
    return null;
  }
}
