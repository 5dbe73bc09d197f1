// Whether a file may have changed since a moment: what lets one `git status` of a request stand for the
// files nobody touched since it ran. Judged by the inode's change time, which no tool can set back.
import { lstatSync } from 'node:fs';

/**
 * Clock granularity of file systems: ext4, xfs, btrfs and tmpfs stamp times from a coarse kernel clock
 * (a few ms behind the real time); FAT, HFS+ and some network mounts keep whole seconds (FAT: two).
 */
const FINE_MARGIN_MS = 50;
const COARSE_MARGIN_MS = 2_000;

export type ChangedSince = (file: string, sinceMs: number) => boolean;

/**
 * A `ChangedSince` over `lstat`: true when the file's change time (or modification time) is not clearly
 * before `sinceMs`, when it is gone, or when it cannot be read.
 */
export function changedSinceBy(lstat: (file: string) => { ctimeMs: number; mtimeMs: number } | undefined): ChangedSince {
  return (file, sinceMs) => {
    try {
      const info = lstat(file);
      return !info || changedAfter(info, sinceMs);
    } catch {
      return true;
    }
  };
}

/** Whether a file with these times (from a stat) may have changed at or after `sinceMs`. */
export function changedAfter(times: { readonly ctimeMs: number; readonly mtimeMs: number }, sinceMs: number): boolean {
  const stamp = Math.max(times.ctimeMs, times.mtimeMs);
  // A time on a whole second comes from a file system that keeps no finer one.
  const margin = stamp % 1000 === 0 ? COARSE_MARGIN_MS : FINE_MARGIN_MS;
  return stamp >= sinceMs - margin;
}

/** The real one: `lstat` of the file itself (a link is judged by the link). */
export const changedSince: ChangedSince = changedSinceBy((file) => lstatSync(file, { throwIfNoEntry: false }));
