// Scenarios a developer switches on to provoke failures: added latency, forced error statuses per operation, a rate limit.
import {
  escapePointerToken,
  isJsonObject,
  operations,
  type ErrorStatus,
  type OperationId,
  type ValidationError,
} from '../../../spec/index.ts';
import { controlOperations, validateBody } from '../control-document/control-plane-schemas.ts';
import type { components } from '../control-document/control-plane-types.generated.ts';
import { createRandom, type Random } from '../../domain/random.ts';

type DocumentedScenarios = components['schemas']['Scenarios'];

type DocumentedOperationScenario = NonNullable<DocumentedScenarios['operations']>[string];

/**
 * Per-operation scenario (`#/components/schemas/Scenarios/properties/operations` of mocks/control-plane/control-plane.yaml), its
 * `errorStatus` typed as the error statuses that operation documents in spec/openapi.yaml.
 */
export type OperationScenario<K extends OperationId = OperationId> = Omit<
  DocumentedOperationScenario,
  'errorStatus'
> & {
  errorStatus?: ErrorStatus<K>;
};

/** Everything the scenario endpoint accepts, every field optional; `operations` is keyed by the spec's operationIds. */
export type ScenarioConfig = Omit<DocumentedScenarios, 'operations'> & {
  operations?: { [K in OperationId]?: OperationScenario<K> };
};

/** What the scenarios decide for one request. */
export type ScenarioDecision = {
  latencyMs: number;
  errorStatus: number | undefined;
  retryAfterSeconds: number | undefined;
};

/**
 * What the control plane's schema cannot say of a scenario: each operation key must be an operationId
 * of spec/openapi.yaml and each errorStatus a status that operation documents.
 * @example scenarioErrors({ operations: { [operationId]: { errorStatus: 999 } } }) // [{ path: '/operations/…/errorStatus', … }]
 */
export function scenarioErrors(config: unknown): { path: string; message: string }[] {
  const errors: { path: string; message: string }[] = [];
  const operationsGiven = isJsonObject(config) && isJsonObject(config.operations) ? config.operations : {};
  for (const [operationId, scenario] of Object.entries(operationsGiven)) {
    const path = `/operations/${escapePointerToken(operationId)}`;
    const operation = operations.get(operationId as OperationId);
    if (!operation) {
      errors.push({ path, message: `is not an operation; use one of ${[...operations.keys()].join(', ')}` });
      continue;
    }
    const documented = [...operation.responses.keys()].filter((status) => status >= 400);
    const errorStatus = isJsonObject(scenario) ? scenario.errorStatus : undefined;
    if (typeof errorStatus === 'number' && !documented.includes(errorStatus))
      errors.push({
        path: `${path}/errorStatus`,
        message: `must be a status ${operationId} documents: ${documented.join(', ')}`,
      });
  }
  return errors;
}

/**
 * The active scenarios and the state they keep (the rate-limit window, the random source of error ratios).
 * @example const scenarios = new Scenarios(42); scenarios.configure({ rateLimit: { limit: 1, windowSeconds: 1 } });
 */
/**
 * Checks a scenario against mocks/control-plane/control-plane.yaml's schema and the rules beside it, returning every problem found;
 * the config is the input itself when there are none (a saved scenario is read back through here too).
 * @example parseScenarioConfig({ latencyMs: -1 }).errors // [{ path: '/latencyMs', message: 'must be >= 0' }]
 */
export function parseScenarioConfig(input: unknown): { config: ScenarioConfig; errors: ValidationError[] } {
  const scenarioOperation = controlOperations.find((operation) => operation.operationId === 'mockSetScenarios');
  if (!scenarioOperation) throw new Error('mocks/control-plane/control-plane.yaml has no mockSetScenarios');
  const copy: unknown = structuredClone(input);
  const validated = validateBody(scenarioOperation, copy);
  const errors = [...(validated.ok ? [] : validated.errors), ...scenarioErrors(copy)];
  return { config: errors.length === 0 ? (copy as ScenarioConfig) : {}, errors };
}

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

  /**
   * Takes the rate-limit window from a count shared by several replicas (the request about to be decided is `count`).
   * @example scenarios.useSharedWindow({ start: now, count: 3 }); scenarios.decide(operationId, now); // the 3rd request
   */
  useSharedWindow(window: { start: number; count: number }): void {
    this.#windowStart = window.start;
    this.#windowCount = window.count - 1;
  }

  /**
   * The RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers (spec/openapi.yaml, components/headers) of
   * the window as the last `decide` left it at time `now`, or undefined while no rate limit is on.
   * @example scenarios.decide(operationId, now); scenarios.rateLimitHeaders(now) // { 'ratelimit-limit': '5', … }
   */
  rateLimitHeaders(now: number): Record<string, string> | undefined {
    const rateLimit = this.#config.rateLimit;
    if (!rateLimit) return undefined;
    const resetMs = this.#windowStart + rateLimit.windowSeconds * 1000 - now;
    return {
      'ratelimit-limit': String(rateLimit.limit),
      'ratelimit-remaining': String(Math.max(0, rateLimit.limit - this.#windowCount)),
      'ratelimit-reset': String(Math.max(0, Math.ceil(resetMs / 1000))),
    };
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
