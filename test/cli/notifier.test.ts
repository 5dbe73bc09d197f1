// --notifications on a clock run by hand: a wait after a long request rings (bell or the user's
// command, with an escaped one-line summary); after a short one it stays quiet.
import { describe, expect, it } from 'vitest';
import { Notifier, NOTIFY_AFTER_MS } from '../../src/cli/notifier.js';

function setup(command: boolean): { notifier: Notifier; advance: (ms: number) => void; rung: string[] } {
  let now = 0;
  const rung: string[] = [];
  const notifier = new Notifier({
    clock: { now: () => new Date(now) },
    bell: () => rung.push('BELL'),
    command: command ? (summary) => rung.push(summary) : null,
  });
  return { notifier, advance: (ms) => (now += ms), rung };
}

describe('Notifier', () => {
  it('rings after a slow request and not after a fast one', () => {
    const { notifier, advance, rung } = setup(false);
    notifier.started();
    advance(NOTIFY_AFTER_MS - 1);
    notifier.finished('done');
    expect(rung).toEqual([]);
    notifier.started();
    advance(NOTIFY_AFTER_MS);
    notifier.finished('done');
    expect(rung).toEqual(['BELL']);
  });

  it("runs the user's command with the summary's first line, escaped, for a question during a long request", () => {
    const { notifier, advance, rung } = setup(true);
    notifier.started();
    advance(NOTIFY_AFTER_MS + 10);
    notifier.waiting('tandem asks: Edit \u001b[31mx.py?\nsecond line');
    advance(10);
    notifier.finished('done');
    expect(rung).toEqual(['tandem asks: Edit \\e[31mx.py?']);
  });

  it('says nothing when no request ran', () => {
    const { notifier, advance, rung } = setup(false);
    advance(NOTIFY_AFTER_MS * 2);
    notifier.waiting('tandem asks: x?');
    expect(rung).toEqual([]);
  });
});
