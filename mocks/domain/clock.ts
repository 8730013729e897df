// The mock's notion of time: wall time plus an offset the control plane can advance, or a frozen time for tests.

/**
 * Largest total offset the mock's clock may be advanced by: 100 years (in ms). Far beyond any test's need, and far from
 * the edge of what a Date can hold (±8.64e15 ms), so every timestamp the fake prints stays valid.
 */
export const MAX_CLOCK_OFFSET_MS = 100 * 365.25 * 24 * 3600 * 1000;

/** Where the fake reads the time; every time-dependent rule goes through one of these so tests can control it. */
export interface Clock {
  /** Milliseconds since the epoch, on the mock's clock. */
  now(): number;
  /** Moves the clock forward by `ms` (never backwards, and never past MAX_CLOCK_OFFSET_MS in total). */
  advance(ms: number): void;
  /** How far the clock has been advanced, in milliseconds (persisted with the state). */
  readonly offset: number;
  /** Back to the offset the clock started with (the control plane's reset). */
  reset?(): void;
}

/**
 * Why `offset` cannot be a clock offset (not a finite number from 0 to MAX_CLOCK_OFFSET_MS), or undefined when it can:
 * the check for whatever loads a persisted offset.
 * @example clockOffsetProblem(1e309) // 'must be a finite number of milliseconds from 0 to 3155760000000'
 */
export function clockOffsetProblem(offset: unknown): string | undefined {
  return typeof offset === 'number' && Number.isFinite(offset) && offset >= 0 && offset <= MAX_CLOCK_OFFSET_MS
    ? undefined
    : `must be a finite number of milliseconds from 0 to ${MAX_CLOCK_OFFSET_MS}`;
}

/** Longest single step of the clock: ten years in ms (the `seconds` maximum of POST /__mock/clock/advance). */
const MAX_CLOCK_STEP_MS = 315_360_000 * 1000;

/**
 * Why the clock cannot move forward by `ms` from `offset`, or undefined when it can: the one check of every way to
 * advance it (the test API in process and over HTTP, POST /__mock/clock/advance).
 * @example clockStepProblem(-1, 0) // 'must be a finite number of milliseconds from 0 to 315360000000 (ten years)'
 */
export function clockStepProblem(ms: number, offset: number): string | undefined {
  if (!(Number.isFinite(ms) && ms >= 0 && ms <= MAX_CLOCK_STEP_MS))
    return `must be a finite number of milliseconds from 0 to ${MAX_CLOCK_STEP_MS} (ten years)`;
  const room = MAX_CLOCK_OFFSET_MS - offset;
  if (ms > room)
    return `would move the clock past its bound of ${MAX_CLOCK_OFFSET_MS / 1000} s (100 years) in total; at most ${Math.max(0, Math.floor(room / 1000))} s are left (a reset restores it)`;
  return undefined;
}

/** `by` added to `offset`, kept within 0..MAX_CLOCK_OFFSET_MS (NaN and negative steps add nothing). */
function advanced(offset: number, by: number): number {
  return by > 0 ? Math.min(offset + by, MAX_CLOCK_OFFSET_MS) : offset;
}

/**
 * A clock that follows wall time, shifted by whatever `advance` added.
 * @example const clock = createSystemClock(); clock.advance(60_000); // one minute in the future
 */
export function createSystemClock(offset = 0, wall: () => number = Date.now): Clock {
  const initial = clockOffsetProblem(offset) === undefined ? offset : 0;
  let shift = initial;
  return {
    now: () => wall() + shift,
    advance(ms) {
      shift = advanced(shift, ms);
    },
    get offset() {
      return shift;
    },
    reset() {
      shift = initial;
    },
  };
}

/**
 * A wall clock that reads `Date.now()` afresh on every call, so it follows a test runner's fake timers
 * (`vi.useFakeTimers()`, Jest's, sinon's) installed before or after it was made; `advance` shifts it as any other.
 * @example vi.useFakeTimers(); const clock = createRunnerClock(); vi.advanceTimersByTime(5000); // clock.now() moved 5 s
 */
export function createRunnerClock(): Clock {
  return createSystemClock(0, () => Date.now());
}

/**
 * A clock that only moves when told to: unit tests and deterministic demos.
 * @example const clock = createFixedClock(Date.parse('2026-11-20T12:00:00Z')); clock.advance(1500);
 */
export function createFixedClock(start: number): Clock {
  return createShiftedClock((shift) => start + shift);
}

/**
 * A session's clock: the time of `base` without the advances made on it, plus this clock's own. Advancing or resetting
 * one session's clock leaves every other session's where it was, and each follows `base` (wall time, fake timers…).
 * @example const clock = createSessionClock(core.clock); clock.advance(60_000); core.clock.now() < clock.now() // true
 */
export function createSessionClock(base: Clock): Clock {
  return createShiftedClock((shift) => base.now() - base.offset + shift);
}

/** A clock whose time is `timeAt(shift)`, where the shift is what `advance` added since the last reset. */
function createShiftedClock(timeAt: (shift: number) => number): Clock {
  let shift = 0;
  return {
    now: () => timeAt(shift),
    advance(ms) {
      shift = advanced(shift, ms);
    },
    get offset() {
      return shift;
    },
    reset() {
      shift = 0;
    },
  };
}
