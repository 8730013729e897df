// The `agent-registry-kit/core` entry: the fake with no HTTP library at all, what configures it, and the assertion
// that an answer conforms to the spec.
export { createMockCore, DEFAULT_SEED, type MockCore, type MockCoreOptions } from '../assembly/mock-core.ts';
export { expectConforms, type SeenResponse } from '../test-api/expect-conforms.ts';
export { createFixedClock, createSystemClock, type Clock } from '../domain/clock.ts';
export type { ScenarioConfig, OperationScenario } from '../core/steering/scenarios.ts';
export { DEFAULT_JWT_SECRET, mintToken, type MintOptions } from '../core/request/auth.ts';
export { createRunnerClock } from '../domain/clock.ts';
export { createTestApi, type MockTestApi } from '../test-api/test-api.ts';
export type { WaitForRequestOptions } from '../test-api/request-reading.ts';
export type { RecordedRequest, RequestFilter } from '../core/steering/recorded-requests.ts';
export {
  buildOverride,
  OverrideError,
  type OverrideBody,
  type OverrideOptions,
  type OverrideProblem,
} from '../core/steering/overrides.ts';
export { MockInputError } from '../domain/input-error.ts';
export type { AgentSeed } from '../state/agent-seed.ts';
export type { TaskSeed } from '../state/task-seed.ts';
export type { ControlPlaneTask } from '../control-plane/control-plane-task.ts';
