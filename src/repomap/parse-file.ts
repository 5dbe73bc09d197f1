// Reads, hashes and tags one file: the unit of work shared by the in-process path and the workers.
import { createHash } from 'node:crypto';
import { readBytesSync } from '../platform/tag-files.js';
import type { TagExtractor } from './extract-tags.js';
import { packTags, type PackedTags } from './packed-tags.js';

export interface ParseJob {
  /** Repository-relative path (what the tags carry). */
  readonly path: string;
  readonly absPath: string;
}

export type ParseOutcome =
  | { readonly path: string; readonly ok: true; readonly hash: string; readonly size: number; readonly packed: PackedTags }
  | { readonly path: string; readonly ok: false; readonly error: string };

/**
 * The content hash tags are cached by: git's blob id of the bytes, sha1 of `blob <length>\0` and
 * the bytes. Equal content, equal id, in any checkout (see shared-tags.ts).
 */
export function blobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

export const hashBytes = blobId;

/**
 * Never throws: a file that vanished or failed to parse becomes an outcome with `ok: false`.
 * The read is synchronous on purpose: a worker has nothing else to do meanwhile (in-process, the
 * parse that follows blocks longer anyway), and awaiting fs/promises' readFile left each parsing
 * thread idle for ~8% of a cold map (measured).
 */
export async function parseFile(extractor: TagExtractor, job: ParseJob): Promise<ParseOutcome> {
  try {
    const bytes = readBytesSync(job.absPath);
    if (bytes === null) return { path: job.path, ok: false, error: `cannot read ${job.path}` };
    const tags = await extractor.extract(job.path, bytes.toString('utf8'));
    return { path: job.path, ok: true, hash: hashBytes(bytes), size: bytes.byteLength, packed: packTags(tags) };
  } catch (error) {
    return { path: job.path, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
