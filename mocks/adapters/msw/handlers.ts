// The `agent-registry-kit/handlers` entry: createHandlers, the override handlers, and ready-made handlers over a default
// core. Only this module makes that default core, when it is imported: the node and browser entries import
// create-handlers.ts, so setupMockServer() makes one core, not two.
import type { HttpHandler } from 'msw';
import { createHandlers } from './create-handlers.ts';

export {
  answerWithCore,
  createHandlers,
  type MockCatchAllHandlers,
  type MockHandlerOptions,
  type MockHandlers,
} from './create-handlers.ts';
export { overrideHandler, uncheckedOverrideHandler, type OverrideHandlerOptions } from './override-handler.ts';

/**
 * Ready-made handlers over one default core (seed 42, any origin). Use `createHandlers` for options or a fresh core per test.
 * @example setupServer(...handlers)
 */
export const handlers: HttpHandler[] = createHandlers().all;
