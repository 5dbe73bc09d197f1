// The exit code of a run of several requests is its most severe outcome.
import { describe, expect, it } from 'vitest';
import { exitCodeFor, mostSevere } from '../../src/session/exit-codes.js';
import type { ResultStatus } from '../../src/session/events.js';

describe('mostSevere', () => {
  it('orders interrupted > error > reflection limit > approval needed > completed, whatever comes last', () => {
    const run = (statuses: ResultStatus[]): number => exitCodeFor(statuses.reduce(mostSevere, 'completed'));
    expect(run(['approval_required', 'completed'])).toBe(4);
    expect(run(['error', 'completed', 'approval_required'])).toBe(1);
    expect(run(['reflection_limit', 'approval_required'])).toBe(3);
    expect(run(['completed', 'error', 'reflection_limit'])).toBe(1);
    expect(run(['error', 'interrupted', 'completed'])).toBe(130);
    expect(run(['completed', 'completed'])).toBe(0);
  });
});
