// Git-style unified diffs of two texts, for --dry-run, the user's view and JSON events. The `diff`
// package finds the hunks; this module only writes them the way git does.
import { structuredPatch, type StructuredPatchHunk } from 'diff';

/**
 * Beyond this many line differences the shortest script costs more than it is worth to a reader:
 * the changed middle is shown as one block instead (as git does for a rewritten file).
 */
const MAX_EDIT_LENGTH = 1000;

/** `before`/`after` null (or '' for before) mean the file did not / will not exist. */
export function unifiedDiff(path: string, before: string | null, after: string | null, context = 3): string {
  const [a, b] = [before ?? '', after ?? ''];
  if (a === b) return '';
  const patch = structuredPatch(path, path, a, b, undefined, undefined, { context, maxEditLength: MAX_EDIT_LENGTH });
  const hunks = patch?.hunks ?? [oneBlock(a, b, context)];
  return [
    before === null || before === '' ? '--- /dev/null' : `--- a/${path}`,
    after === null ? '+++ /dev/null' : `+++ b/${path}`,
    ...hunks.flatMap((h) => [`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`, ...h.lines]),
    '',
  ].join('\n');
}

function range(start: number, count: number): string {
  // git: an empty side names the line before it; a single line omits the count.
  const first = count === 0 ? start - 1 : start;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/** Lines keep their '\n' so "last line without newline" differs from the same line with one. */
function splitKeep(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function marked(tag: ' ' | '-' | '+', line: string): string[] {
  return line.endsWith('\n') ? [tag + line.slice(0, -1)] : [tag + line, '\\ No newline at end of file'];
}

/** The hunk for a change too large to diff line by line: common lines around, the rest replaced. */
function oneBlock(before: string, after: string, context: number): StructuredPatchHunk {
  const a = splitKeep(before);
  const b = splitKeep(after);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const lead = a.slice(Math.max(0, pre - context), pre);
  const trail = a.slice(a.length - suf, a.length - suf + Math.min(suf, context));
  const removed = a.slice(pre, a.length - suf);
  const added = b.slice(pre, b.length - suf);
  const start = pre - lead.length + 1;
  return {
    oldStart: start,
    oldLines: lead.length + removed.length + trail.length,
    newStart: start,
    newLines: lead.length + added.length + trail.length,
    lines: [
      ...lead.flatMap((l) => marked(' ', l)),
      ...removed.flatMap((l) => marked('-', l)),
      ...added.flatMap((l) => marked('+', l)),
      ...trail.flatMap((l) => marked(' ', l)),
    ],
  };
}
