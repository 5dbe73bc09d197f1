// A burst of events becomes one; it waits while git holds its index lock.
import { describe, expect, it } from 'vitest';
import { SaveBurst, type Burst, type BurstTimer } from '../../src/watch/save-burst.js';

/** A timer run by hand: `fire()` runs what is due as if the quiet time had passed. */
function manualTimer(): BurstTimer & { fire(): void; pending(): number } {
  let due: Array<() => void> = [];
  return {
    after(_ms, fn) {
      due.push(fn);
      return () => (due = due.filter((f) => f !== fn));
    },
    fire() {
      const now = due;
      due = [];
      for (const fn of now) fn();
    },
    pending: () => due.length,
  };
}

describe('SaveBurst', () => {
  it('turns a temp-file-and-rename save into one burst', () => {
    const timer = manualTimer();
    const bursts: Burst[] = [];
    const burst = new SaveBurst({ timer, onBurst: (b) => bursts.push(b) });
    burst.file('.a.py.swp');
    burst.file('a.py');
    burst.file('a.py');
    expect(timer.pending()).toBe(1);
    timer.fire();
    expect(bursts).toEqual([{ files: ['.a.py.swp', 'a.py'], git: false }]);
    timer.fire();
    expect(bursts).toHaveLength(1);
  });

  it('stays open while git holds the index lock, and says git moved', () => {
    const timer = manualTimer();
    const bursts: Burst[] = [];
    let locked = true;
    const burst = new SaveBurst({ timer, onBurst: (b) => bursts.push(b), gitBusy: () => locked });
    burst.file('a.py');
    burst.gitMoved();
    timer.fire();
    expect(bursts).toEqual([]);
    locked = false;
    timer.fire();
    expect(bursts).toEqual([{ files: ['a.py'], git: true }]);
  });

  it('drops the open burst when stopped', () => {
    const timer = manualTimer();
    const bursts: Burst[] = [];
    const burst = new SaveBurst({ timer, onBurst: (b) => bursts.push(b) });
    burst.file('a.py');
    burst.stop();
    timer.fire();
    expect(bursts).toEqual([]);
  });
});
