import { describe, expect, it } from 'vitest';
import { createDoubleInterrupt } from '../../src/cli/repl.js';
import { FakeClock } from '../support/fake-platform.js';

describe('Ctrl-C at the prompt', () => {
  it('leaves only on a second press within two seconds of the one before', () => {
    const clock = new FakeClock();
    const isSecond = createDoubleInterrupt(clock);
    expect(isSecond()).toBe(false);
    clock.advance(1999);
    expect(isSecond()).toBe(true);
    clock.advance(2000);
    expect(isSecond()).toBe(false);
    clock.advance(2500);
    expect(isSecond()).toBe(false);
    clock.advance(10);
    expect(isSecond()).toBe(true);
  });
});
