// What the node and browser entries export of the test API beside their setup function: typed overrides, a story's own
// fake (createStoryFake), seeding types and the errors a refused call throws (one list, so the two entries cannot drift
// apart).
export {
  overrideHandler,
  uncheckedOverrideHandler,
  type OverrideHandlerOptions,
} from '../adapters/msw/override-handler.ts';
export { createStoryFake, type StoryFake, type StoryFakeOptions } from '../adapters/msw/story-fake.ts';
export {
  OverrideError,
  type OverrideBody,
  type OverrideOptions,
  type OverrideProblem,
} from '../core/steering/overrides.ts';
export { MockInputError } from '../domain/input-error.ts';
export type { MockTestApi, WritePactOptions, WrittenPact } from '../test-api/test-api.ts';
export type { WaitForRequestOptions } from '../test-api/request-reading.ts';
export type { RecordedRequest, RequestFilter, SentBody } from '../core/steering/recorded-requests.ts';
export type { AgentSeed } from '../state/agent-seed.ts';
export type { TaskSeed } from '../state/task-seed.ts';
export type { ControlPlaneTask } from '../control-plane/control-plane-task.ts';
export type { ScenarioConfig, OperationScenario } from '../core/steering/scenarios.ts';
