// What fires and what is quoted: comments there at start or written by tandem or git are foreign;
// only the user's new ones fire, once.
import { describe, expect, it } from 'vitest';
import type { AiComment } from '../../src/watch/ai-comments.js';
import { AiCommentTracker } from '../../src/watch/comment-tracker.js';

const c = (text: string, line = 1, kind: AiComment['kind'] = 'code'): AiComment => ({ line, text, kind });
const texts = (comments: readonly AiComment[]): string[] => comments.map((x) => x.text);

describe('AiCommentTracker', () => {
  it('fires only on comments that are new since last seen, and quotes only the user\'s', () => {
    const tracker = new AiCommentTracker();
    tracker.absorb('a.py', [c('stranger AI!')]);
    expect(tracker.update('a.py', [c('stranger AI!')])).toEqual([]);
    const now = [c('stranger AI!'), c('mine AI!', 2)];
    expect(texts(tracker.update('a.py', now))).toEqual(['mine AI!']);
    expect(texts(tracker.userComments('a.py', now))).toEqual(['mine AI!']);
  });

  it("treats tandem's own write as foreign: a comment it added neither fires nor is quoted", () => {
    const tracker = new AiCommentTracker();
    tracker.absorb('a.py', []);
    tracker.update('a.py', [c('mine AI!')]);
    tracker.absorb('a.py', [c('mine AI!'), c('model AI!', 2)]);
    expect(tracker.update('a.py', [c('mine AI!'), c('model AI!', 2)])).toEqual([]);
    expect(texts(tracker.userComments('a.py', [c('mine AI!'), c('model AI!', 2)]))).toEqual(['mine AI!']);
  });

  it('fires a comment once: the same text coming back (stash pop, undo) is not a new request', () => {
    const tracker = new AiCommentTracker();
    tracker.absorb('a.py', []);
    expect(tracker.update('a.py', [c('do it AI!')])).toHaveLength(1);
    expect(tracker.update('a.py', [])).toEqual([]);
    expect(tracker.update('a.py', [c('do it AI!')])).toEqual([]);
    expect(tracker.update('a.py', [c('do it AI!'), c('something else AI!', 2)])).toHaveLength(1);
  });

  it('counts repeats: a second copy of a comment text the file already had is new', () => {
    const tracker = new AiCommentTracker();
    tracker.absorb('a.py', []);
    tracker.update('a.py', [c('x AI!')]);
    expect(tracker.fresh('a.py', [c('x AI!'), c('x AI!', 3)])).toEqual([]);
  });

  it('a new file (not seen at start) is the user\'s', () => {
    const tracker = new AiCommentTracker();
    expect(texts(tracker.update('new.py', [c('write it AI!')]))).toEqual(['write it AI!']);
  });
});
