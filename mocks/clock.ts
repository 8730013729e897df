// The mock's notion of time: wall time plus an offset the control plane can advance, or a frozen time for tests.

/** Where the fake reads the time; every time-dependent rule goes through one of these so tests can control it. */
export interface Clock {
  /** Milliseconds since the epoch, on the mock's clock. */
  now(): number;
  /** Moves the clock forward by `ms` (never backwards). */
  advance(ms: number): void;
  /** How far the clock has been advanced, in milliseconds (persisted with the state). */
  readonly offset: number;
}

/**
 * A clock that follows wall time, shifted by whatever `advance` added.
 * @example const clock = createSystemClock(); clock.advance(60_000); // one minute in the future
 */
export function createSystemClock(offset = 0, wall: () => number = Date.now): Clock {
  let shift = offset;
  return {
    now: () => wall() + shift,
    advance(ms) {
      if (ms > 0) shift += ms;
    },
    get offset() {
      return shift;
    },
  };
}

/**
 * A clock that only moves when told to: unit tests and deterministic demos.
 * @example const clock = createFixedClock(Date.parse('2026-11-20T12:00:00Z')); clock.advance(1500);
 */
export function createFixedClock(start: number): Clock {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      if (ms > 0) current += ms;
    },
    get offset() {
      return current - start;
    },
  };
}
