// The sessions of a core: each a core of its own, made on first use from the fake's options (in memory, on a clock of
// its own, with smaller bounds), sharing with the default core what is the same for every session.
import type { Authenticator } from '../core/request/auth.ts';
import { createSessionClock, type Clock } from '../domain/clock.ts';
import type { Coverage } from '../core/steering/coverage.ts';
import type { MockRequest, MockResponse } from '../core/mock-http.ts';
import { SESSION_HEADER, SESSION_JOURNAL_SIZE, SESSION_MAX_TASKS, SessionRegistry } from '../core/sessions/sessions.ts';
import type { CatalogueCache } from '../state/catalogue-cache.ts';
import type { PactLog } from '../pact-export/pact-log.ts';
import type { MockCore, MockCoreOptions } from './mock-core-interface.ts';
import type { SessionShare } from './session-records.ts';

/**
 * What a session's core shares with the core it belongs to: the coverage, the clock it follows, and what is the same for
 * every session, so that a session costs what it changes: the seed's catalogue (read-only to a store) and the
 * verified-token cache (a token verified once is valid in every session).
 */
export interface SessionParent {
  coverage: Coverage;
  pact: PactLog;
  clock: Clock;
  catalogue: CatalogueCache;
  authenticator: Authenticator;
}

/** Makes a core; with `parent`, the core of one session, holding at most `share`. */
type AssembleCore = (
  options: MockCoreOptions,
  parent: SessionParent | undefined,
  share: SessionShare | undefined,
) => MockCore;

/**
 * The options a session's core is made with: the fake's own, in memory, on a clock of its own, with smaller bounds. Its
 * journal and task history are rings that take at most a quarter of its share each, so what it deploys or seeds has
 * the rest.
 */
function sessionOptions(options: MockCoreOptions, parent: SessionParent, share: SessionShare): MockCoreOptions {
  const {
    storage: _storage,
    sessions: _sessions,
    dispatchLayer: _dispatchLayer,
    randomStart: _randomStart,
    watchStoredChanges: _watchStoredChanges,
    ...rest
  } = options;
  const ringShare = Math.max(1, Math.floor(share.maxRecords / 4));
  return {
    ...rest,
    clock: createSessionClock(parent.clock),
    journalSize: Math.min(options.journalSize ?? SESSION_JOURNAL_SIZE, SESSION_JOURNAL_SIZE, ringShare),
    maxTasks: Math.min(options.maxTasks ?? SESSION_MAX_TASKS, SESSION_MAX_TASKS, ringShare),
    sessions: false,
  };
}

/** Routes a request naming a session to it, anything else to `answer`. */
export function inSession(
  routeToSession: (request: MockRequest) => MockResponse | Promise<MockResponse> | undefined,
  answer: (request: MockRequest) => MockResponse | Promise<MockResponse>,
): (request: MockRequest) => MockResponse | Promise<MockResponse> {
  // The default session pays two property reads for sessions: no header and no cookie means no lookup at all.
  return (request) =>
    (request.headers[SESSION_HEADER] !== undefined || request.headers.cookie !== undefined
      ? routeToSession(request)
      : undefined) ?? answer(request);
}

/**
 * The default core's sessions, each a core of its own made on first use by `assemble`; undefined when sessions are off.
 */
export function createSessions(
  options: MockCoreOptions,
  parent: SessionParent,
  assemble: AssembleCore,
): SessionRegistry<MockCore> | undefined {
  if (options.sessions === false || options.sessions?.max === 0) return undefined;
  const registry: SessionRegistry<MockCore> = new SessionRegistry<MockCore>(
    {
      create: (id) => {
        const share = { maxRecords: registry.maxRecords, id };
        return assemble(sessionOptions(options, parent, share), parent, share);
      },
      records: (session) => session.records,
    },
    options.sessions ?? {},
  );
  return registry;
}
