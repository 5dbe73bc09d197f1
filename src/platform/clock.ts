// The clock as a port: code that stamps or times things asks it, so tests set the time instead of
// waiting for it.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
