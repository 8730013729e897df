// A core's answer to one request: its dispatch's answer, or the problem for what the dispatch threw, with CORS headers
// and, for the API, what the answer leaves behind (answer-recording.ts).
import type { DispatchTrace } from '../core/api-dispatch.ts';
import { isForeignPage, withCors, type CorsOrigins } from '../core/request/cors.ts';
import type { Coverage } from '../core/steering/coverage.ts';
import type { Journal } from '../core/steering/journal.ts';
import type { MockRequest, MockResponse } from '../core/mock-http.ts';
import type { Dispatch } from '../core/dispatch-layer.ts';
import { failureResponse } from '../core/failure-response.ts';
import type { Clock } from '../domain/clock.ts';
import type { Logger } from '../domain/logger.ts';
import type { AgentStore } from '../state/store/store.ts';
import type { PactLog, PactShare } from '../pact-export/pact-log.ts';
import type { ProviderStateMarks } from '../pact-export/provider-state.ts';
import { recordAnswer } from './answer-recording.ts';
import { isControlPath } from './front-door.ts';

/** What an answer of a core needs besides the request: its dispatch and what every answer leaves behind. */
interface AnswerParts {
  answerOnce: Dispatch;
  corsOrigins: CorsOrigins;
  coverage: Coverage;
  journal: Journal;
  clock: Clock;
  logger: Logger;
  pact: PactLog;
  pactShare: PactShare | undefined;
  store: AgentStore;
  providerStates: ProviderStateMarks;
}

/**
 * A core's answer to one request: the dispatch's, or the problem for what it threw, with CORS headers and, for the API,
 * its coverage count and journal line. Synchronous unless the dispatch has to wait (see createApiDispatch), so the
 * node:http listener can answer at once; the closures of `then` are made only for an answer that waits.
 */
export function createAnswer(parts: AnswerParts): (request: MockRequest) => MockResponse | Promise<MockResponse> {
  const { answerOnce, corsOrigins, coverage, journal, clock, logger, pact, pactShare, store, providerStates } = parts;
  const records = { coverage, journal, clock, pact, pactShare, store, providerStates };
  const finish = (request: MockRequest, response: MockResponse, context: DispatchTrace, started: number) => {
    const control = isControlPath(request.path);
    withCors(corsOrigins, request, response, control);
    // A page of another site is answered (CORS `*` lets it read) but leaves nothing behind: with the public default
    // JWT secret it can mint a token, and its requests must not become the developer's pact, journal or coverage.
    if (!control && !isForeignPage(corsOrigins, request)) recordAnswer(records, request, response, context, started);
    return response;
  };
  return (request) => {
    const started = performance.now();
    const context: DispatchTrace = { operationId: null, bodyText: null };
    let pending: MockResponse | Promise<MockResponse>;
    try {
      pending = answerOnce(request, context);
    } catch (error) {
      pending = failureResponse(error, request, logger);
    }
    if (!(pending instanceof Promise)) return finish(request, pending, context, started);
    return pending.then(
      (response) => finish(request, response, context, started),
      (error: unknown) => finish(request, failureResponse(error, request, logger), context, started),
    );
  };
}
