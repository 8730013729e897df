// The `agent-registry-kit/core` entry: the fake with no HTTP library at all, what configures it, and the assertion
// that an answer conforms to the spec.
export { createMockCore, DEFAULT_SEED, type MockCore, type MockCoreOptions } from './core.ts';
export { expectConforms, type SeenResponse } from './expect-conforms.ts';
export { createFixedClock, createSystemClock, type Clock } from './clock.ts';
export type { ScenarioConfig, OperationScenario } from './scenarios.ts';
export { DEFAULT_JWT_SECRET, mintToken, type MintOptions } from './auth.ts';
export { createRunnerClock } from './clock.ts';
export { createTestApi, type MockTestApi } from './test-api.ts';
export {
  buildOverride,
  OverrideError,
  type OverrideBody,
  type OverrideOptions,
  type OverrideProblem,
} from './overrides.ts';
export { MockInputError } from './input-error.ts';
export type { AgentSeed } from './agent-seed.ts';
export type { TaskSeed } from './task-seed.ts';
export type { ControlPlaneTask } from './control-plane-task.ts';
