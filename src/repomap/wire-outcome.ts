// A parse outcome in the form it crosses between the tags workers and the main thread.
import type { ParseOutcome } from './parse-file.js';

/**
 * An outcome as it crosses the thread boundary: a file's names as one string, since cloning one
 * string costs far less than cloning each of hundreds of thousands of small ones (a tenth of a
 * cold map's worker time went into postMessage). Names never contain a newline (see extract-tags).
 */
export type WireOutcome =
  | Exclude<ParseOutcome, { ok: true }>
  | { readonly path: string; readonly ok: true; readonly hash: string; readonly size: number; readonly names: string; readonly kinds: readonly string[]; readonly data: Int32Array };

export function toWire(outcome: ParseOutcome): WireOutcome {
  if (!outcome.ok) return outcome;
  const { names, kinds, data } = outcome.packed;
  return { path: outcome.path, ok: true, hash: outcome.hash, size: outcome.size, names: names.join('\n'), kinds, data };
}

export function fromWire(wire: WireOutcome): ParseOutcome {
  if (!wire.ok) return wire;
  const names = wire.names === '' ? [] : wire.names.split('\n');
  return { path: wire.path, ok: true, hash: wire.hash, size: wire.size, packed: { names, kinds: wire.kinds, data: wire.data } };
}
