// What the node and browser entries export of the test API beside their setup function: typed overrides, seeding types
// and the errors a refused call throws (one list, so the two entries cannot drift apart).
export { overrideHandler, uncheckedOverrideHandler, type OverrideHandlerOptions } from './override-handler.ts';
export { OverrideError, type OverrideBody, type OverrideOptions, type OverrideProblem } from './overrides.ts';
export { MockInputError } from './input-error.ts';
export type { MockTestApi } from './test-api.ts';
export type { AgentSeed } from './agent-seed.ts';
export type { TaskSeed } from './task-seed.ts';
export type { ControlPlaneTask } from './control-plane-task.ts';
export type { ScenarioConfig, OperationScenario } from './scenarios.ts';
