// Which AI comments the user wrote since watching began. Every comment that arrived another way (there
// at start, written by tandem, brought in by a checkout) is foreign: it never fires and is never quoted
// as the user's request, because a repository or a model reply may hold comments nobody here typed.
// A comment fires once: the same text coming back to its file (a stash popped, an undo) fires nothing.
import type { AiComment } from './ai-comments.js';

type Counts = Map<string, number>;

function keyOf(comment: AiComment): string {
  return `${comment.kind}\u0000${comment.text}`;
}

function countsOf(comments: readonly AiComment[]): Counts {
  const counts: Counts = new Map();
  for (const comment of comments) counts.set(keyOf(comment), (counts.get(keyOf(comment)) ?? 0) + 1);
  return counts;
}

export class AiCommentTracker {
  /** The comments last seen in each file. */
  private readonly seen = new Map<string, Counts>();
  /** Of those, how many of each arrived other than by the user's typing. */
  private readonly foreign = new Map<string, Counts>();
  /** Every comment each file has held since watching began. */
  private readonly ever = new Map<string, Set<string>>();

  private remember(path: string, counts: Counts): void {
    const ever = this.ever.get(path) ?? new Set<string>();
    for (const key of counts.keys()) ever.add(key);
    this.ever.set(path, ever);
  }

  /** The comments last seen in the file (one entry per occurrence; lines are not kept). */
  lastSeen(path: string): AiComment[] {
    const out: AiComment[] = [];
    for (const [key, count] of this.seen.get(path) ?? []) {
      const [kind, text] = key.split('\u0000') as [AiComment['kind'], string];
      for (let i = 0; i < count; i++) out.push({ line: 0, text, kind });
    }
    return out;
  }

  /** Whether `path` has been seen (at start, or since). */
  knows(path: string): boolean {
    return this.seen.has(path);
  }

  /** The file's comments did not come from the user (start, tandem's write, a checkout): none fires. */
  absorb(path: string, comments: readonly AiComment[]): void {
    const before = this.seen.get(path) ?? new Map<string, number>();
    const now = countsOf(comments);
    const foreign = this.foreign.get(path) ?? new Map<string, number>();
    const next: Counts = new Map();
    for (const [key, count] of now) {
      const arrived = Math.max(0, count - (before.get(key) ?? 0));
      const kept = Math.min(foreign.get(key) ?? 0, count);
      if (kept + arrived > 0) next.set(key, Math.min(count, kept + arrived));
    }
    // Most files hold no AI comment: nothing is kept for them (an unknown file counts as empty).
    if (now.size === 0 && !this.seen.has(path)) return;
    this.foreign.set(path, next);
    this.seen.set(path, now);
    this.remember(path, now);
  }

  /** What `update` would return, changing nothing. */
  fresh(path: string, comments: readonly AiComment[]): AiComment[] {
    const before = this.seen.get(path) ?? new Map<string, number>();
    const ever = this.ever.get(path);
    const used: Counts = new Map();
    return comments.filter((comment) => {
      const key = keyOf(comment);
      const taken = (used.get(key) ?? 0) + 1;
      used.set(key, taken);
      return taken > (before.get(key) ?? 0) && !ever?.has(key);
    });
  }

  /** The user saved the file: returns the comments that are new since it was last seen. */
  update(path: string, comments: readonly AiComment[]): AiComment[] {
    const fresh = this.fresh(path, comments);
    const now = countsOf(comments);
    // A foreign comment the user deleted and typed again is the user's now.
    const foreign = this.foreign.get(path);
    if (foreign) for (const [key, count] of foreign) foreign.set(key, Math.min(count, now.get(key) ?? 0));
    this.seen.set(path, now);
    this.remember(path, now);
    return fresh;
  }

  /** The user's own comments among `comments` (the file's current ones): the foreign ones left out. */
  userComments(path: string, comments: readonly AiComment[]): AiComment[] {
    const foreign = new Map(this.foreign.get(path) ?? []);
    // The last ones of a kind are the user's: foreign text usually sat there first.
    const out: AiComment[] = [];
    for (const comment of comments) {
      const key = keyOf(comment);
      const left = foreign.get(key) ?? 0;
      if (left > 0) {
        foreign.set(key, left - 1);
        continue;
      }
      out.push(comment);
    }
    return out;
  }

  forget(path: string): void {
    this.seen.delete(path);
    this.foreign.delete(path);
  }
}
