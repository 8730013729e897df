// Scenarios a developer switches on to provoke failures: added latency, forced error statuses per operation, a rate limit.
import { operations, type OperationId } from '../spec/index.ts';
import { createRandom, type Random } from './random.ts';

/** Per-operation scenario. */
export interface OperationScenario {
  /** Milliseconds added before answering this operation. */
  latencyMs?: number;
  /** A status the operation documents (e.g. 500); answered with its problem body instead of the real answer. */
  errorStatus?: number;
  /** Share of requests that get `errorStatus`, 0..1 (default 1), drawn from the seeded random source. */
  errorRatio?: number;
}

/** Everything the scenario endpoint accepts; every field optional. */
export interface ScenarioConfig {
  /** Milliseconds added before answering every /v1 request. */
  latencyMs?: number;
  operations?: Partial<Record<OperationId, OperationScenario>>;
  /** At most `limit` /v1 requests per `windowSeconds` on the mock's clock; beyond it 429 with Retry-After. */
  rateLimit?: { limit: number; windowSeconds: number };
  /** Share of tasks that end `failed`, 0..1. */
  taskFailureRatio?: number;
}

/** What the scenarios decide for one request. */
export type ScenarioDecision = {
  latencyMs: number;
  errorStatus: number | undefined;
  retryAfterSeconds: number | undefined;
};

const LATENCY_LIMIT_MS = 60_000;
const isRatio = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value <= 1;
const isLatency = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= LATENCY_LIMIT_MS;

/**
 * Checks a scenario body by hand (it is the control plane's, documented in mocks/control-plane.yaml); returns each problem found.
 * @example parseScenarioConfig({ operations: { getAgent: { errorStatus: 500 } } }).errors // []
 */
export function parseScenarioConfig(input: unknown): {
  config: ScenarioConfig;
  errors: { path: string; message: string }[];
} {
  const errors: { path: string; message: string }[] = [];
  const config: ScenarioConfig = {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { config, errors: [{ path: '', message: 'must be an object' }] };
  }
  const body = input as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (!['latencyMs', 'operations', 'rateLimit', 'taskFailureRatio'].includes(key))
      errors.push({ path: `/${key}`, message: 'is not a scenario setting' });
  }
  if (body.latencyMs !== undefined) {
    if (isLatency(body.latencyMs)) config.latencyMs = body.latencyMs;
    else errors.push({ path: '/latencyMs', message: `must be a number from 0 to ${LATENCY_LIMIT_MS}` });
  }
  if (body.taskFailureRatio !== undefined) {
    if (isRatio(body.taskFailureRatio)) config.taskFailureRatio = body.taskFailureRatio;
    else errors.push({ path: '/taskFailureRatio', message: 'must be a number from 0 to 1' });
  }
  if (body.rateLimit !== undefined) {
    const limit = body.rateLimit as Record<string, unknown> | null;
    if (
      typeof limit === 'object' &&
      limit !== null &&
      Number.isInteger(limit.limit) &&
      (limit.limit as number) >= 1 &&
      typeof limit.windowSeconds === 'number' &&
      limit.windowSeconds > 0 &&
      limit.windowSeconds <= 3600
    ) {
      config.rateLimit = { limit: limit.limit as number, windowSeconds: limit.windowSeconds };
    } else {
      errors.push({
        path: '/rateLimit',
        message: 'must be { limit: integer >= 1, windowSeconds: number in (0, 3600] }',
      });
    }
  }
  if (body.operations !== undefined) {
    if (typeof body.operations !== 'object' || body.operations === null || Array.isArray(body.operations)) {
      errors.push({ path: '/operations', message: 'must be an object keyed by operationId' });
    } else {
      config.operations = {};
      for (const [operationId, raw] of Object.entries(body.operations as Record<string, unknown>)) {
        const path = `/operations/${operationId}`;
        const operation = operations.get(operationId as OperationId);
        if (!operation) {
          errors.push({ path, message: `is not an operation; use one of ${[...operations.keys()].join(', ')}` });
          continue;
        }
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
          errors.push({ path, message: 'must be an object' });
          continue;
        }
        const scenario = raw as Record<string, unknown>;
        const parsed: OperationScenario = {};
        if (scenario.latencyMs !== undefined) {
          if (isLatency(scenario.latencyMs)) parsed.latencyMs = scenario.latencyMs;
          else errors.push({ path: `${path}/latencyMs`, message: `must be a number from 0 to ${LATENCY_LIMIT_MS}` });
        }
        if (scenario.errorStatus !== undefined) {
          const documented = [...operation.responses.keys()].filter((status) => status >= 400);
          if (typeof scenario.errorStatus === 'number' && documented.includes(scenario.errorStatus))
            parsed.errorStatus = scenario.errorStatus;
          else
            errors.push({
              path: `${path}/errorStatus`,
              message: `must be a status ${operationId} documents: ${documented.join(', ')}`,
            });
        }
        if (scenario.errorRatio !== undefined) {
          if (isRatio(scenario.errorRatio)) parsed.errorRatio = scenario.errorRatio;
          else errors.push({ path: `${path}/errorRatio`, message: 'must be a number from 0 to 1' });
        }
        config.operations[operationId as OperationId] = parsed;
      }
    }
  }
  return { config, errors };
}

/**
 * The active scenarios and the state they keep (the rate-limit window, the random source of error ratios).
 * @example const scenarios = new Scenarios(42); scenarios.configure({ rateLimit: { limit: 1, windowSeconds: 1 } });
 */
export class Scenarios {
  #config: ScenarioConfig = {};
  #random: Random;
  #seed: number;
  #defaultFailureRatio: number;
  #windowStart = 0;
  #windowCount = 0;

  /** `taskFailureRatio` is the share of failing tasks while no scenario sets one (the `--failure-ratio` flag). */
  constructor(seed: number, defaults: { taskFailureRatio?: number } = {}) {
    this.#seed = seed;
    this.#defaultFailureRatio = defaults.taskFailureRatio ?? 0.1;
    this.#random = createRandom((seed ^ 0x5bd1e995) >>> 0);
  }

  get config(): ScenarioConfig {
    return this.#config;
  }

  /** The share of tasks that fail now: the scenario's, else the default; a reset or a cleared scenario returns to it. */
  get taskFailureRatio(): number {
    return this.#config.taskFailureRatio ?? this.#defaultFailureRatio;
  }

  /** Whether anything is switched on; the hot path skips the rest when not. */
  get active(): boolean {
    return (
      this.#config.latencyMs !== undefined ||
      this.#config.operations !== undefined ||
      this.#config.rateLimit !== undefined
    );
  }

  configure(config: ScenarioConfig): void {
    this.#config = config;
    this.#windowStart = 0;
    this.#windowCount = 0;
  }

  reset(): void {
    this.configure({});
    this.#random = createRandom((this.#seed ^ 0x5bd1e995) >>> 0);
  }

  /** Decides latency, forced error and rate limiting for one /v1 request at time `now` (mock clock). */
  decide(operationId: OperationId | undefined, now: number): ScenarioDecision {
    const config = this.#config;
    let retryAfterSeconds: number | undefined;
    if (config.rateLimit) {
      const windowMs = config.rateLimit.windowSeconds * 1000;
      if (now >= this.#windowStart + windowMs || now < this.#windowStart) {
        this.#windowStart = now;
        this.#windowCount = 0;
      }
      this.#windowCount += 1;
      if (this.#windowCount > config.rateLimit.limit)
        retryAfterSeconds = Math.max(1, Math.ceil((this.#windowStart + windowMs - now) / 1000));
    }
    const operation = operationId ? config.operations?.[operationId] : undefined;
    let errorStatus: number | undefined;
    if (operation?.errorStatus !== undefined && this.#random.next() < (operation.errorRatio ?? 1))
      errorStatus = operation.errorStatus;
    return { latencyMs: (config.latencyMs ?? 0) + (operation?.latencyMs ?? 0), errorStatus, retryAfterSeconds };
  }
}
