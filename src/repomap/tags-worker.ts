// Worker-thread entry for the tags pool: receives batches of files, answers one outcome per file.
// Being a thread's entry point, it starts listening when loaded (only ever via `new Worker`).
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { createGrammarLoader } from '../platform/tree-sitter.js';
import type { LanguageId } from '../platform/tree-sitter.js';
import { adoptTieringLock } from '../platform/wasm-tiering.js';
import { createTagExtractor } from './extract-tags.js';
import { parseFile } from './parse-file.js';
import type { ParseJob } from './parse-file.js';
import { toWire, type WireOutcome } from './wire-outcome.js';

export interface TagsWorkerData {
  readonly queriesDir: string;
  readonly grammarDir?: string;
  /** Grammars to load and queries to compile on start, before the first batch arrives. */
  readonly preload?: readonly LanguageId[];
  /** The parent's lock around wasm compiles with changed V8 flags (see wasm-tiering.ts). */
  readonly tieringLock?: SharedArrayBuffer;
}

/**
 * Parent -> worker: a batch to parse. Worker -> parent: the batch's outcomes in one message.
 * Tags travel packed: cloning hundreds of thousands of small objects between threads costs both
 * threads more than the parse of many files; one message per batch rather than per file.
 */
export type TagsWorkerRequest = { readonly type: 'batch'; readonly jobs: readonly ParseJob[] };
export type TagsWorkerReply = { readonly type: 'outcomes'; readonly outcomes: readonly WireOutcome[] };


function serveTags(port: MessagePort, data: TagsWorkerData): void {
  if (data.tieringLock) adoptTieringLock(data.tieringLock);
  const loader = createGrammarLoader(data.grammarDir ? { grammarDir: data.grammarDir } : {});
  const extractor = createTagExtractor(loader, data.queriesDir);
  // Started now, so loading overlaps the parent's file listing. Batches wait for it: a grammar
  // load must not overlap another (see TagExtractor.prepare).
  const ready = extractor.prepare(data.preload ?? []);
  port.on('message', async (request: TagsWorkerRequest) => {
    await ready;
    const outcomes: WireOutcome[] = [];
    for (const job of request.jobs) outcomes.push(toWire(await parseFile(extractor, job)));
    const buffers = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.data.buffer as ArrayBuffer] : []));
    port.postMessage({ type: 'outcomes', outcomes } satisfies TagsWorkerReply, buffers);
  });
}

if (parentPort) serveTags(parentPort, workerData as TagsWorkerData);
