// The SEARCH/REPLACE markers: which lines are markers, and which are near misses to report.
// Accepted: 5 to 9 marker characters, one space, the word in any case, trailing spaces,
// `SEARCH>` / `REPLACE<`, and leading indentation (blocks nested in a list).

const HEAD_RE = /^\s*<{5,9} (SEARCH)>?\s*$/i;
const DIVIDER_RE = /^\s*={5,9}\s*$/;
const TAIL_RE = /^\s*>{5,9} (REPLACE)<?\s*$/i;

// Anything that starts like a marker but is not one: wrong count, missing space, extra words,
// or the old ORIGINAL/UPDATED words.
const NEAR_HEAD_RE = /^\s*<{2,}\s*(SEARCH|ORIGINAL)\b/i;
const NEAR_TAIL_RE = /^\s*>{2,}\s*(REPLACE|UPDATED)\b/i;

export const HEAD = '<<<<<<< SEARCH';
export const DIVIDER = '=======';
export const TAIL = '>>>>>>> REPLACE';

export function isHead(line: string): boolean {
  return HEAD_RE.test(line);
}

export function isDivider(line: string): boolean {
  return DIVIDER_RE.test(line);
}

/** A divider written exactly as in the prompt, used to choose among several candidates. */
export function isExactDivider(line: string): boolean {
  return line.trim() === DIVIDER;
}

export function isTail(line: string): boolean {
  return TAIL_RE.test(line);
}

export function isNearHead(line: string): boolean {
  return !isHead(line) && NEAR_HEAD_RE.test(line);
}

export function isNearTail(line: string): boolean {
  return !isTail(line) && NEAR_TAIL_RE.test(line);
}

/** Any line that belongs to SEARCH/REPLACE syntax, right or nearly right. */
export function isMarkerLike(line: string): boolean {
  return HEAD_RE.test(line) || TAIL_RE.test(line) || NEAR_HEAD_RE.test(line) || NEAR_TAIL_RE.test(line);
}

/** Shows a reply line inside a message without letting a huge line flood it. */
export function quoteLine(line: string): string {
  const t = line.trim();
  return JSON.stringify(t.length > 80 ? `${t.slice(0, 77)}...` : t);
}
