// The `agent-registry-kit/core` entry: the fake with no HTTP library at all, what configures it, and the assertion
// that an answer conforms to the spec.
export { createMockCore, DEFAULT_SEED, type MockCore, type MockCoreOptions } from './core.ts';
export { expectConforms, type SeenResponse } from './expect-conforms.ts';
export { createFixedClock, createSystemClock, type Clock } from './clock.ts';
export type { ScenarioConfig, OperationScenario } from './scenarios.ts';
export { DEFAULT_JWT_SECRET, mintToken, type MintOptions } from './auth.ts';
