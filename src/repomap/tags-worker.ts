// Worker-thread entry for the tags pool: receives batches of files, answers one outcome per file.
// Being a thread's entry point, it starts listening when loaded (only ever via `new Worker`).
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { createGrammarLoader } from '../platform/tree-sitter.js';
import type { LanguageId } from '../platform/tree-sitter.js';
import { createTagExtractor } from './extract-tags.js';
import { parseFile } from './parse-file.js';
import type { ParseJob, ParseOutcome } from './parse-file.js';

export interface TagsWorkerData {
  readonly queriesDir: string;
  readonly grammarDir?: string;
  /** Grammars to load and queries to compile on start, before the first batch arrives. */
  readonly preload?: readonly LanguageId[];
}

/**
 * Parent -> worker: a batch to parse. Worker -> parent: each outcome, then `idle` after the batch.
 * Tags travel packed: cloning hundreds of thousands of small objects between threads costs both
 * threads more than the parse of many files.
 */
export type TagsWorkerRequest = { readonly type: 'batch'; readonly jobs: readonly ParseJob[] };
export type TagsWorkerReply = { readonly type: 'outcome'; readonly outcome: ParseOutcome } | { readonly type: 'idle' };

export function serveTags(port: MessagePort, data: TagsWorkerData): void {
  const loader = createGrammarLoader(data.grammarDir ? { grammarDir: data.grammarDir } : {});
  const extractor = createTagExtractor(loader, data.queriesDir);
  // Started now, so loading overlaps the parent's file listing. Batches wait for it: a grammar
  // load must not overlap another (see TagExtractor.prepare).
  const ready = extractor.prepare(data.preload ?? []);
  port.on('message', async (request: TagsWorkerRequest) => {
    await ready;
    for (const job of request.jobs) {
      const outcome = await parseFile(extractor, job);
      const reply: TagsWorkerReply = { type: 'outcome', outcome };
      port.postMessage(reply, outcome.ok ? [outcome.packed.data.buffer as ArrayBuffer] : []);
    }
    port.postMessage({ type: 'idle' } satisfies TagsWorkerReply);
  });
}

if (parentPort) serveTags(parentPort, workerData as TagsWorkerData);
