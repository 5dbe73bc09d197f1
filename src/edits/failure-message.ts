// Text written for the model when edits fail: the failed block, the closest real lines, candidate
// line numbers, and what already applied. The similarity search here only informs; it never applies.
import { LineView, foldLine, toLines } from './match-lines.js';
import type { BlockFailure, Edit } from './types.js';
import { fillPlaceholders } from '../platform/placeholders.js';

const MAX_SHOWN_LINES = 40;
const NON_ASCII = /[^\x00-\x7F]/;

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${text.replace(/\n$/, '')}\n${f}`;
}

/** Runs of letters/digits, or runs of other non-space characters, lowercased. */
function tokens(line: string): string[] {
  const folded = foldLine(line).toLowerCase();
  // On ASCII text the plain classes equal the Unicode ones and run several times faster.
  const re = NON_ASCII.test(folded) ? /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]+/gu : /[a-z0-9_]+|[^\sa-z0-9_]+/g;
  return folded.match(re) ?? [];
}

function asView(file: readonly string[] | LineView): LineView {
  return file instanceof LineView ? file : new LineView(file);
}

/**
 * The window of the file that best resembles SEARCH: each SEARCH line's tokens vote for the
 * window starts that would align them with file lines holding the same token; rare tokens weigh more.
 * A LineView keeps each line's tokens between calls, so a failure costs one pass of set lookups.
 */
export function closestWindow(
  file: readonly string[] | LineView,
  searchLines: readonly string[],
): { start: number; end: number } | null {
  const view = asView(file);
  const fileLines = view.lines;
  if (fileLines.length === 0) return null;
  const wanted = new Set(searchLines.flatMap(tokens));
  const lineTokens = view.perLine('closest-tokens', tokens);
  // Only SEARCH's tokens can vote, so only they need their lines listed (each line once per token).
  const index = new Map<string, number[]>();
  lineTokens.forEach((ts, i) => {
    for (const t of ts) {
      if (!wanted.has(t)) continue;
      const list = index.get(t);
      if (!list) index.set(t, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  });
  const votes = new Map<number, number>();
  searchLines.forEach((s, k) => {
    for (const t of new Set(tokens(s))) {
      const hits = index.get(t);
      if (!hits || hits.length > 200) continue;
      const w = 1 / hits.length;
      for (const i of hits) votes.set(i - k, (votes.get(i - k) ?? 0) + w);
    }
  });
  let best: number | null = null;
  let bestScore = 0;
  for (const [start, score] of votes) {
    if (score > bestScore || (score === bestScore && best !== null && start < best)) {
      best = start;
      bestScore = score;
    }
  }
  if (best === null) return null;
  const size = Math.min(Math.max(searchLines.length, 1), MAX_SHOWN_LINES);
  const start = Math.max(0, Math.min(best, fileLines.length - 1));
  return { start, end: Math.min(fileLines.length, start + size) };
}

function numbered(lines: readonly string[], start: number, end: number): string {
  const width = String(end).length;
  const out: string[] = [];
  for (let i = start; i < end; i++) out.push(`${String(i + 1).padStart(width)} | ${lines[i] ?? ''}`);
  return out.join('\n');
}

function containsLines(view: LineView, lines: readonly string[]): boolean {
  const want = lines.map((l) => l.trim()).filter((l) => l !== '');
  const first = want[0];
  if (first === undefined) return false;
  const have = view.keys('trim');
  for (const i of view.positions('trim', first)) {
    let j = i;
    let ok = true;
    for (const w of want) {
      while (j < have.length && have[j] === '') j++;
      if (have[j] !== w) {
        ok = false;
        break;
      }
      j++;
    }
    if (ok) return true;
  }
  return false;
}

function blockLabel(edit: Edit): string {
  return `Block ${edit.index + 1} (\`${edit.path}\`)`;
}

/** no_match: the block, the closest lines with numbers, and a note when REPLACE is already there. */
export function noMatchMessage(
  edit: Edit,
  path: string,
  file: string | LineView,
  hint?: string,
): string {
  const view = typeof file === 'string' ? new LineView(toLines(file)) : file;
  const fileLines = view.lines;
  const search = edit.kind === 'replace' ? toLines(edit.search) : [];
  const parts = [
    `${blockLabel(edit)}: the SEARCH text does not match any lines in ${path}.`,
    fence(edit.source),
  ];
  if (hint) parts.push(hint);
  const win = closestWindow(view, search);
  if (win) {
    parts.push(
      `The closest lines in ${path} (lines ${win.start + 1}-${win.end}); copy SEARCH from the file exactly:`,
      fence(numbered(fileLines, win.start, win.end)),
    );
  }
  if (edit.kind === 'replace' && containsLines(view, toLines(edit.replace))) {
    parts.push(
      `Note: the REPLACE text is already present in ${path}. If this change is already made, do not send this block again.`,
    );
  }
  return parts.join('\n');
}

export function ambiguousMessage(edit: Edit, path: string, candidates: readonly number[]): string {
  const shown = candidates.slice(0, 10).join(', ');
  const more = candidates.length > 10 ? ` and ${candidates.length - 10} more` : '';
  return [
    `${blockLabel(edit)}: the SEARCH text matches ${candidates.length} places in ${path}, starting at lines ${shown}${more}. Nothing was changed.`,
    fence(edit.source),
    'Add a few more surrounding lines to SEARCH so that it matches exactly one place.',
  ].join('\n');
}

export function missingFileMessage(edit: Edit, path: string): string {
  return [
    `${blockLabel(edit)}: ${path} does not exist, so its SEARCH text cannot match. To create a file, use an empty SEARCH section.`,
    fence(edit.source),
  ].join('\n');
}

/** file_exists: a udiff `--- /dev/null` (create) for a file that already has other text. */
export function fileExistsMessage(edit: Edit, path: string): string {
  return [
    `${blockLabel(edit)}: \`--- /dev/null\` creates a new file, but ${path} already exists, so nothing was changed. To change it, send a diff against its current contents with \`--- a/${path}\` and \`+++ b/${path}\`, with context lines copied from the file.`,
    fence(edit.source),
  ].join('\n');
}

/** placeholder_path: the example folder of the instructions (`path/to/`) used as a real path. */
export function placeholderMessage(edit: Edit, prefix: string): string {
  return [
    `${blockLabel(edit)}: \`${prefix}\` is the example folder from the instructions, not a folder of this repository, so nothing was written. Resend the block with the file's real path from the repository root.`,
    fence(edit.source),
  ].join('\n');
}

/** For refusals decided elsewhere (paths, binary, too large, denied): the reason plus the block. */
export function refusedMessage(edit: Edit, reason: string): string {
  return [`${blockLabel(edit)}: ${reason}`, fence(edit.source)].join('\n');
}

/** The failed blocks, each with what went wrong. */
function failureSection(failures: readonly BlockFailure[]): string {
  const n = failures.length;
  const head = `${n} edit block${n === 1 ? '' : 's'} failed to apply:`;
  return `${head}\n\n${failures.map((f) => f.message.trim()).join('\n\n')}`;
}

/** Not a failure: the reply changed nothing, and the model should know that before it says it is done. */
function unchangedOnlyNote(n: number): string {
  const blocks = n === 1 ? 'Your edit block has' : `All ${n} of your edit blocks have`;
  return `${blocks} identical SEARCH and REPLACE sections, so no file was changed. If a change is needed, send blocks whose REPLACE holds the new lines; if not, say so.`;
}

/** Said once per message, after every failed and malformed block, so the model resends only those. */
function appliedNote(appliedCount: number): string {
  if (appliedCount === 0) return 'No other blocks were applied. Send corrected versions of the failed blocks.';
  const them = appliedCount === 1 ? 'it' : 'them';
  return `The other ${appliedCount} block${appliedCount === 1 ? '' : 's'} applied successfully. Do not send ${them} again; fix only the blocks above.`;
}

export interface RoundProblems {
  /** Malformed blocks, already written for the model. */
  readonly parseProblems: readonly string[];
  /** Every block of the reply had SEARCH equal to REPLACE: how many, so the model learns nothing changed. */
  readonly unchangedOnly?: number;
  readonly failures: readonly BlockFailure[];
  readonly appliedCount: number;
}

/**
 * The text sent back to the model for everything a round could not do: parse problems, failed edits, and
 * a single sentence on what did apply (the parse and match sections never each say it). The user's "no"
 * is not a failure for the model to retry, so denied edits are never in it; nor are edits to `skip`
 * (files just added to the chat, which the model is asked to redo). '' when there is nothing to fix.
 */
export function describeRoundProblems(round: RoundProblems, prompts: { parseProblems: string }, skip: ReadonlySet<string> = new Set()): string {
  const failed = round.failures.filter((f) => f.reason !== 'denied' && !skip.has(f.edit.path));
  const sections: string[] = [];
  if (round.parseProblems.length > 0) {
    sections.push(fillPlaceholders(prompts.parseProblems, { problems: round.parseProblems.join('\n') }).trim());
  }
  if (failed.length > 0) sections.push(failureSection(failed));
  if (sections.length === 0 && (round.unchangedOnly ?? 0) > 0) return unchangedOnlyNote(round.unchangedOnly ?? 0);
  if (sections.length === 0) return '';
  sections.push(appliedNote(round.appliedCount));
  return sections.join('\n\n');
}
