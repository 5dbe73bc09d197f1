// Git-style unified diffs of two texts, for --dry-run, the user's view and JSON events.
// Myers' O((N+M)D) line diff after trimming the common prefix and suffix.

type Op = { readonly tag: ' ' | '-' | '+'; readonly line: string; readonly oldNo: number; readonly newNo: number };

/** Lines keep their '\n' so "last line without newline" differs from the same line with one. */
function splitKeep(text: string): string[] {
  if (text === '') return [];
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Beyond this many differences we stop searching for the shortest script and emit one block. */
const MAX_D = 2000;

/** Returns the middle's script as a list of tags, or null when D exceeds MAX_D. */
function myers(a: readonly string[], b: readonly string[]): Array<' ' | '-' | '+'> | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_D);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a.length, b.length, d);
    }
  }
  return null;
}

function backtrack(trace: readonly Int32Array[], n: number, m: number, dEnd: number): Array<' ' | '-' | '+'> {
  const tags: Array<' ' | '-' | '+'> = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const vd = trace[d] as Int32Array; // holds v for k in [-d-1, d+1] as it was before step d
    const at = (k: number): number => vd[k + d + 1] ?? 0;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      tags.push(' ');
      x--;
      y--;
    }
    tags.push(down ? '+' : '-');
    if (down) y--;
    else x--;
  }
  while (x > 0 && y > 0) {
    tags.push(' ');
    x--;
    y--;
  }
  return tags.reverse();
}

function diffOps(a: readonly string[], b: readonly string[]): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const midA = a.slice(pre, a.length - suf);
  const midB = b.slice(pre, b.length - suf);
  const tags = myers(midA, midB) ?? [...midA.map(() => '-' as const), ...midB.map(() => '+' as const)];
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  const push = (tag: Op['tag']): void => {
    const line = tag === '+' ? (b[j] ?? '') : (a[i] ?? '');
    ops.push({ tag, line, oldNo: i, newNo: j });
    if (tag !== '+') i++;
    if (tag !== '-') j++;
  };
  for (let p = 0; p < pre; p++) push(' ');
  for (const t of tags) push(t);
  for (let s = 0; s < suf; s++) push(' ');
  return ops;
}

function range(start: number, count: number): string {
  // git: an empty side names the line before it; a single line omits the count.
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}

function renderLine(op: Op): string {
  const body = op.line.endsWith('\n') ? op.line.slice(0, -1) : `${op.line}\n\\ No newline at end of file`;
  return `${op.tag}${body}`;
}

/** `before`/`after` null (or '' for before) mean the file did not / will not exist. */
export function unifiedDiff(path: string, before: string | null, after: string | null, context = 3): string {
  const ops = diffOps(splitKeep(before ?? ''), splitKeep(after ?? ''));
  const changed = ops.map((o, i) => (o.tag === ' ' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return '';
  const out = [
    before === null || before === '' ? '--- /dev/null' : `--- a/${path}`,
    after === null ? '+++ /dev/null' : `+++ b/${path}`,
  ];
  let h = 0;
  while (h < changed.length) {
    let last = changed[h] as number;
    let end = h;
    while (end + 1 < changed.length && (changed[end + 1] as number) - last <= 2 * context) {
      end++;
      last = changed[end] as number;
    }
    const from = Math.max(0, (changed[h] as number) - context);
    const to = Math.min(ops.length, last + context + 1);
    const slice = ops.slice(from, to);
    const first = slice[0] as Op;
    const oldCount = slice.filter((o) => o.tag !== '+').length;
    const newCount = slice.filter((o) => o.tag !== '-').length;
    out.push(`@@ -${range(first.oldNo, oldCount)} +${range(first.newNo, newCount)} @@`);
    for (const op of slice) out.push(renderLine(op));
    h = end + 1;
  }
  return out.join('\n') + '\n';
}
