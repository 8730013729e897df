// The fake's core, wired: store, clock, journal, scenarios, auth and the documents kept in the storage, behind the
// front door (front-door.ts), answering every request (core-answer.ts) and routing a session's to its own core
// (session-cores.ts). What it takes and gives is mock-core-interface.ts.
import { createApiDispatch } from '../core/api-dispatch.ts';
import { createAuthenticator, DEFAULT_JWT_SECRET, type Authenticator } from '../core/request/auth.ts';
import { clockStepProblem, createRunnerClock, createSystemClock, type Clock } from '../domain/clock.ts';
import { handleControlRequest } from '../control-plane/control-plane.ts';
import { Coverage } from '../core/steering/coverage.ts';
import { MockInputError } from '../domain/input-error.ts';
import { DEFAULT_JOURNAL_SIZE, Journal } from '../core/steering/journal.ts';
import { consoleLogger } from '../domain/logger.ts';
import type { BuiltOverride } from '../core/steering/overrides.ts';
import { createCoreDocuments, type CoreDocuments } from '../core/core-documents.ts';
import { seedFromText } from '../domain/random.ts';
import { parseScenarioConfig, Scenarios } from '../core/steering/scenarios.ts';
import { createSessionRouting } from '../core/sessions/sessions.ts';
import { recordsHeld, sessionRoom, type SessionRoom, type SessionShare } from './session-records.ts';
import type { OperationId } from '../../spec/index.ts';
import { createMemoryStorage } from '../storage/memory/memory-storage.ts';
import type { Storage } from '../state/storage.ts';
import { AgentStore } from '../state/store/store.ts';
import { DEFAULT_FAILURE_RATIO } from '../state/store/store-types.ts';
import { operationTable } from '../operations/operation-table.ts';
import { PactLog } from '../pact-export/pact-log.ts';
import { ProviderStateMarks } from '../pact-export/provider-state.ts';
import { answerSync, DEFAULT_SEED, type MockCore, type MockCoreOptions } from './mock-core-interface.ts';
import { createAnswer } from './core-answer.ts';
import { dispatchContext, frontDoor } from './front-door.ts';
import { createSessions, inSession, type SessionParent } from './session-cores.ts';

export { answerSync, DEFAULT_SEED, type MockCore, type MockCoreOptions } from './mock-core-interface.ts';

const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates the fake's core.
 * @example
 * const core = createMockCore({ seed: 7 });
 * const response = await core.handle({ method: 'GET', path: '/v1/agents/x', query: '', headers: {}, body: null }); // 401
 */
export function createMockCore(options: MockCoreOptions = {}): MockCore {
  return assembleCore(options, undefined, undefined);
}

/** The store of a core, made from its options; a session's shares its parent's catalogue and asks its room. */
function createStore(
  options: MockCoreOptions,
  parts: {
    seed: number;
    clock: Clock;
    storage: Storage;
    scenarios: Scenarios;
    parent: SessionParent | undefined;
    room: SessionRoom | undefined;
  },
): AgentStore {
  const { seed, clock, storage, scenarios, parent, room } = parts;
  return new AgentStore({
    seed,
    clock,
    storage,
    failureRatio: () => scenarios.taskFailureRatio,
    ...(options.catalogueSize !== undefined && { catalogueSize: options.catalogueSize }),
    ...(options.maxTasks !== undefined && { maxTasks: options.maxTasks }),
    ...(options.maxAgents !== undefined && { maxAgents: options.maxAgents }),
    ...(options.randomStart !== undefined && { randomStart: options.randomStart }),
    ...(parent !== undefined && { catalogue: parent.catalogue }),
    ...(room !== undefined && { hasRoom: room.hasRoom }),
  });
}

/**
 * A core; with `parent`, the core of one session (it shares the parent's coverage, catalogue and token cache, follows
 * its clock), holding at most `share`.
 */
function assembleCore(
  options: MockCoreOptions,
  parent: SessionParent | undefined,
  share: SessionShare | undefined,
): MockCore {
  const seed = typeof options.seed === 'string' ? seedFromText(options.seed) : (options.seed ?? DEFAULT_SEED);
  const clock = options.clock ?? (options.followFakeTimers ? createRunnerClock() : createSystemClock());
  const overrides = new Map<OperationId, BuiltOverride['response']>();
  const logger = options.logger ?? consoleLogger;
  const corsOrigins = options.corsOrigins ?? '*';
  const storage = options.storage ?? createMemoryStorage();
  const scenarios = new Scenarios(seed, { taskFailureRatio: options.failureRatio ?? DEFAULT_FAILURE_RATIO });
  const journal = new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE);
  const providerStates = new ProviderStateMarks();
  const pact = parent?.pact ?? new PactLog();
  // What a session's answers added to the pact log counts among what it holds, for as long as the log keeps it.
  const held = () => recordsHeld(store, journal, overrides) + (share ? pact.sessionRecords(share.id) : 0);
  const room: SessionRoom | undefined = share && sessionRoom(share, held, journal, overrides);
  const store = createStore(options, { seed, clock, storage, scenarios, parent, room });
  const authenticator: Authenticator =
    parent?.authenticator ?? createAuthenticator(options.jwtSecret ?? DEFAULT_JWT_SECRET, options.wallClock);
  const coverage = parent?.coverage ?? new Coverage();
  const documents = createCoreDocuments({
    storage,
    clock,
    scenarios,
    coverage,
    overrides,
    scenariosAtStart: options.scenarios,
    ownsCoverage: parent === undefined,
    watchStoredChanges: options.watchStoredChanges,
  });
  const { persist } = documents;
  const dispatchApi = createApiDispatch({
    clock,
    scenarios,
    authenticator,
    services: {
      store,
      persist,
      // In memory nothing is waited for: the answer goes out at once, with no promise (the hot path of the fake).
      acknowledge: (response) => (storage.durable ? persist().then(() => response) : response),
    },
    operations: operationTable,
    sleep: options.sleep ?? sleepFor,
    overrides,
    overrideUsed: (operationId) => documents.overrideUsed(operationId),
  });
  const dispatch = frontDoor(corsOrigins, dispatchApi, (request) => handleControlRequest(core, request));
  const answerOnce = options.dispatchLayer?.(dispatch, dispatchContext(scenarios, clock)) ?? dispatch;
  const sessions =
    parent === undefined
      ? createSessions(options, { coverage, pact, clock, catalogue: store.catalogue, authenticator }, assembleCore)
      : undefined;
  // A session's own core answers whatever reaches it: only the default core routes to sessions.
  const routeToSession = parent === undefined ? createSessionRouting(sessions, corsOrigins) : () => undefined;

  const answer = createAnswer({
    answerOnce,
    corsOrigins,
    coverage,
    journal,
    clock,
    logger,
    pact,
    pactShare: room?.pactShare,
    store,
    providerStates,
  });
  const answerNow = inSession(routeToSession, answer);
  const core: MockCore = {
    store,
    clock,
    journal,
    scenarios,
    coverage,
    pact,
    seed,
    storage,
    sessions,
    session(id) {
      if (!sessions) throw new Error('This core has no sessions (a session of its own, or sessions: false).');
      return sessions.open(id);
    },
    get records() {
      return held();
    },
    overrides,
    providerStates,
    setOverride(override) {
      const misfit = room?.overrideMisfit(override);
      return misfit ? Promise.reject(misfit) : documents.setOverride(override);
    },
    clearOverrides: () => documents.clearOverrides(),
    removeOverride: (operationId) => documents.removeOverride(operationId),
    reset() {
      store.reset();
      providerStates.clear();
      scenarios.reset();
      journal.clear();
      clock.reset?.();
      documents.afterReset();
    },
    persist,
    advanceClock: (ms) => advanceChecked(ms, { clock, documents, store }),
    async configureScenarios(config) {
      const parsed = parseScenarioConfig(config);
      if (parsed.errors.length > 0) throw new MockInputError('The scenario configuration', parsed.errors);
      await documents.saveScenarios(parsed.config);
    },
    handle(request) {
      const answered = answerNow(request);
      return answered instanceof Promise ? answered : Promise.resolve(answered);
    },
    [answerSync]: answerNow,
  };
  return core;
}

/** Moves a core's clock by a step the one clock check allows (else a MockInputError), then settles the tasks due. */
async function advanceChecked(
  ms: number,
  parts: { clock: Clock; documents: Pick<CoreDocuments, 'advanceClock'>; store: Pick<AgentStore, 'settle'> },
): Promise<void> {
  const problem = clockStepProblem(ms, parts.clock.offset);
  if (problem !== undefined) throw new MockInputError('The clock step', [{ path: '/ms', message: problem }]);
  await parts.documents.advanceClock(ms);
  parts.store.settle();
}
