// What a request that threw while being answered gets: the documented 503 when its state could not be read or its
// change not saved, a 500 else.
import type { Logger } from '../domain/logger.ts';
import type { MockRequest, MockResponse } from './mock-http.ts';
import { problemResponse } from './problems.ts';
import { StorageUnavailableError, StorageWriteError } from '../state/storage.ts';

/**
 * The problem answer for an error thrown while answering `request`; an unexpected one is logged with its stack.
 * @example failureResponse(new StorageWriteError('disk full'), request, consoleLogger).status // 503
 */
export function failureResponse(error: unknown, request: MockRequest, logger: Logger): MockResponse {
  const instance = request.path.slice(0, 2048);
  // Reads fail this way too (the retrieve documents it as StateUnavailable); a write that could not be saved is below.
  if (error instanceof StorageUnavailableError)
    return problemResponse('state-unavailable', {
      detail: `The shared state could not be read (${error.message}); nothing was applied, so retrying is safe.`,
      instance,
    });
  if (error instanceof StorageWriteError)
    return problemResponse('state-not-saved', {
      detail: `The change could not be saved (${error.message}); nothing of it was applied, so retrying is safe.`,
      instance,
    });
  logger.error(
    `${request.method} ${request.path.slice(0, 200)} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  return problemResponse('internal', {
    detail: 'The fake backend failed to handle the request; its log has the cause.',
    instance,
  });
}
