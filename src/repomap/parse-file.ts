// Reads, hashes and tags one file: the unit of work shared by the in-process path and the workers.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TagExtractor } from './extract-tags.js';
import { packTags, type PackedTags } from './packed-tags.js';

export interface ParseJob {
  /** Repository-relative path (what the tags carry). */
  readonly path: string;
  readonly absPath: string;
}

export type ParseOutcome =
  | { readonly path: string; readonly ok: true; readonly hash: string; readonly packed: PackedTags }
  | { readonly path: string; readonly ok: false; readonly error: string };

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

/**
 * Never throws: a file that vanished or failed to parse becomes an outcome with `ok: false`.
 * The read is synchronous on purpose: a worker has nothing else to do meanwhile (in-process, the
 * parse that follows blocks longer anyway), and awaiting fs/promises' readFile left each parsing
 * thread idle for ~8% of a cold map (measured).
 */
export async function parseFile(extractor: TagExtractor, job: ParseJob): Promise<ParseOutcome> {
  try {
    const bytes = readFileSync(job.absPath);
    const tags = await extractor.extract(job.path, bytes.toString('utf8'));
    return { path: job.path, ok: true, hash: hashBytes(bytes), packed: packTags(tags) };
  } catch (error) {
    return { path: job.path, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
