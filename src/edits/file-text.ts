// Decodes file bytes into a FileSnapshot ('\n' text + how it was stored) and encodes planned text back
// the same way: line endings, BOM and final-newline state survive an edit.
import type { FileSnapshot } from './types.js';

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

export type DecodeResult =
  | { readonly ok: true; readonly snapshot: FileSnapshot }
  | { readonly ok: false; readonly reason: 'binary' | 'too_large'; readonly message: string };

/** The snapshot of a file that does not exist yet. */
export function missingSnapshot(path: string): FileSnapshot {
  return { path, text: null, eol: '\n', bom: false, finalNewline: true };
}

/** Binary means a NUL byte or bytes that are not valid UTF-8; we never guess other encodings. */
export function decodeFileBytes(
  path: string,
  bytes: Uint8Array,
  maxBytes = DEFAULT_MAX_FILE_BYTES,
): DecodeResult {
  if (bytes.length > maxBytes) {
    return {
      ok: false,
      reason: 'too_large',
      message: `${path} is ${bytes.length} bytes, over the ${maxBytes}-byte limit for edits.`,
    };
  }
  const binary: DecodeResult = {
    ok: false,
    reason: 'binary',
    message: `${path} is a binary file (not UTF-8 text) and cannot be edited.`,
  };
  if (bytes.includes(0)) return binary;
  let raw: string;
  try {
    raw = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return binary;
  }
  const bom = raw.startsWith('\uFEFF');
  if (bom) raw = raw.slice(1);
  const crlf = raw.split('\r\n').length - 1;
  const lf = raw.split('\n').length - 1 - crlf;
  // Mixed files are written back with their majority ending.
  const eol = crlf > lf ? '\r\n' : '\n';
  const text = raw.replace(/\r\n/g, '\n');
  return { ok: true, snapshot: { path, text, eol, bom, finalNewline: text.endsWith('\n') } };
}

/**
 * The final-newline rule. A file that had no final newline keeps none: editors and formatters
 * that produced it would fight us otherwise, and no edit format can say "add one" unambiguously.
 * New and empty files, and files that had one, end with exactly their newline. `finalNewline`, when
 * given, is what the edit itself said (a udiff's `\ No newline at end of file`) and wins.
 */
export function finalizeText(after: string, before: FileSnapshot, finalNewline?: boolean): string {
  if (after === '') return '';
  const hadNone = finalNewline === undefined ? before.text !== null && before.text !== '' && !before.finalNewline : !finalNewline;
  if (hadNone) return after.endsWith('\n') ? after.slice(0, -1) : after;
  return after.endsWith('\n') ? after : after + '\n';
}

/**
 * Planned '\n' text back to the bytes' conventions of `before` (eol, BOM). The final newline is the
 * planner's (finalizeText, or a udiff's `\ No newline at end of file`), so it is kept as it is.
 */
export function encodeSnapshotText(after: string, before: FileSnapshot): string {
  const text = after.replace(/\r\n/g, '\n');
  const withEol = before.eol === '\r\n' ? text.replace(/\n/g, '\r\n') : text;
  return before.bom ? '\uFEFF' + withEol : withEol;
}
