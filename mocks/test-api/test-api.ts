// One test API over the fake: override an operation, seed agents and tasks, set scenarios, move the clock, reset. The
// same interface in-process (node and browser entries, over the core) and over HTTP (the standalone server's control plane).
import {
  validateSchema,
  type Agent,
  type AgentStatus,
  type DocumentedStatus,
  type OperationKey,
  type OperationOf,
} from '../../spec/index.ts';
import type { AgentSeed } from '../state/agent-seed.ts';
import type { MockCore } from '../assembly/mock-core.ts';
import { MockInputError } from '../domain/input-error.ts';
import { buildOverride, type OverrideBody, type OverrideOptions } from '../core/steering/overrides.ts';
import type { ScenarioConfig } from '../core/steering/scenarios.ts';
import type { SeedOutcome } from '../state/store/store-types.ts';
import type { TaskSeed } from '../state/task-seed.ts';
import { toControlPlaneTask, type ControlPlaneTask } from '../control-plane/control-plane-task.ts';
import { recordedRequests } from '../core/steering/recorded-requests.ts';
import { createRequestReading, type RequestReading } from './request-reading.ts';
import type { PactSpecification } from '../pact-export/pact-document.ts';

/** Where `writePact` writes what, and for whom. */
export interface WritePactOptions {
  /** The app's name in the pact (Pact's consumer). */
  consumer: string;
  /** The API's name in the pact (Pact's provider), as the provider's verification and the broker know it. */
  provider: string;
  /** The file to write (relative to the working directory; its folder is created). */
  file: string;
  /** 4 (the default: Pact V4) or 3. */
  pactSpecification?: PactSpecification;
}

/** What `writePact` wrote. */
export interface WrittenPact {
  file: string;
  /** Interactions in the file now: what it held merged with what these tests added. */
  interactions: number;
}

/**
 * What every test can do to the fake, each call checked against the spec (types at compile time, validators at run
 * time), and what it reads back of the requests the app sent (`requests`, `waitForRequest`).
 */
export interface MockTestApi extends RequestReading {
  /**
   * From now until `reset`, answers the operation (operationId or `METHOD /path/{template}`) with a status it documents
   * and a body of that status's schema (omitted: the spec's example). A body that breaks the spec throws an OverrideError
   * naming each JSON Pointer and rule.
   */
  override<const Key extends OperationKey, const S extends DocumentedStatus<OperationOf<Key>>>(
    operation: Key,
    status: S,
    body?: OverrideBody<Key, S>,
    options?: OverrideOptions,
  ): Promise<void>;
  /** The escape hatch: any status and body, unchecked, for testing how an app copes with a broken server. */
  overrideUnchecked(operation: OperationKey, status: number, body?: unknown, options?: OverrideOptions): Promise<void>;
  /** Stores an agent from a partial record (the rest generated from the seed) and returns it as stored. */
  seedAgent(fields?: AgentSeed): Promise<Agent>;
  /** Stores a task on an agent in the given status (a finished one counts in the agent's figures) and returns it. */
  seedTask(fields: TaskSeed): Promise<ControlPlaneTask>;
  /**
   * The task as the fake holds it now (GET /__mock/tasks/{taskId}), its status read on the mock's clock; the API has no
   * task read, so this is the test's view. A task the fake does not hold (or no longer: the history is bounded) throws
   * MockInputError.
   * @example const task = await api.seedTask({ agentId, status: 'queued' }); await api.advanceClock(60_000);
   * (await api.task(task.taskId)).status // 'completed' or 'failed'
   */
  task(taskId: string): Promise<ControlPlaneTask>;
  /** Sets an agent's status (the API has no operation for it). */
  setAgentStatus(agentId: string, status: AgentStatus): Promise<Agent>;
  /** Replaces the scenarios, checked as PUT /__mock/scenarios checks them (`{}` clears them). */
  setScenarios(config: ScenarioConfig): Promise<void>;
  /** Moves the mock's clock forward; tasks due meanwhile settle. */
  advanceClock(ms: number): Promise<void>;
  /** Back to the start: overrides and handlers, state, scenarios, clock and journal. */
  reset(): Promise<void>;
  /**
   * Writes a Pact file of what the app made the fake answer since the fake started (resets do not clear it; every
   * session adds to it): one interaction per operation, status and provider state, with matchers from the spec and
   * the token never written. Merged into the file's pact of the same consumer and provider (each test file's
   * `afterAll` adds its own; parallel workers wait for each other's lock), so remove the file before a run to start
   * afresh; an interaction the file holds answered differently throws, naming it, after writing the rest. Under Node
   * only; call it in `afterAll`.
   */
  writePact(options: WritePactOptions): Promise<WrittenPact>;
}

/** What an adapter adds to the core's reset (msw's `resetHandlers`). */
export interface TestApiHooks {
  resetHandlers?: () => void;
  /**
   * Writes a pact (`writePact`), merged into the file's; the node entry passes mocks/pact-export/pact-file.ts's, the browser
   * entry none (it has no file system).
   */
  writeFile?: (file: string, text: string) => Promise<{ interactions: number } | undefined>;
}

/**
 * A pact file's writer, its one-line refusal (a folder, an unwritable or too long name, a file holding another pact)
 * thrown as the MockInputError of `/file`; a merge conflict, or anything else, as it came.
 * @example const written = await writingPact(() => writePactFile(file, text));
 */
export async function writingPact<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Error && error.name === 'PactFileError')
      throw new MockInputError('writePact', [{ path: '/file', message: error.message }]);
    throw error;
  }
}

/**
 * Checks writePact's options as GET /__mock/pact checks its query (names of 1 to 256 characters, version 3 or 4).
 * @example pactOptionErrors({ consumer: '', provider: 'api', file: 'x.json' }) // [{ path: '/consumer', … }]
 */
export function pactOptionErrors(options: WritePactOptions): { path: string; message: string }[] {
  const errors: { path: string; message: string }[] = [];
  for (const name of ['consumer', 'provider', 'file'] as const) {
    const value: unknown = options[name];
    if (typeof value !== 'string' || value.length === 0 || (name !== 'file' && value.length > 256))
      errors.push({
        path: `/${name}`,
        message: `must be a string of 1${name === 'file' ? ' or more' : ' to 256'} characters`,
      });
  }
  const version: unknown = options.pactSpecification;
  if (version !== undefined && version !== 3 && version !== 4)
    errors.push({ path: '/pactSpecification', message: 'must be 3 or 4' });
  return errors;
}

function unwrap<T>(outcome: SeedOutcome<T>, what: string): T {
  if (!outcome.ok) throw new MockInputError(what, outcome.errors);
  return outcome.value;
}

/**
 * The test API over an in-process core (what `setupMockServer().api` and `setupMockWorker().api` are).
 * @example const api = createTestApi(core); await api.override(operationId, 500); await api.reset();
 */
export function createTestApi(core: MockCore, hooks: TestApiHooks = {}): MockTestApi {
  return {
    ...createRequestReading(async (id, after) => recordedRequests(core.journal.entriesAfter(after), id), 10),
    async override(operation, status, body, options) {
      await core.setOverride(buildOverride(operation, status, body, options, true));
    },
    async overrideUnchecked(operation, status, body, options) {
      await core.setOverride(buildOverride(operation, status, body, options, false));
    },
    async seedAgent(fields = {}) {
      const agent = unwrap(core.store.seedAgent(fields), 'The agent seed');
      await core.persist();
      return agent;
    },
    async seedTask(fields) {
      const task = toControlPlaneTask(unwrap(core.store.seedTask(fields), 'The task seed'));
      await core.persist();
      return task;
    },
    async task(taskId) {
      const task = typeof taskId === 'string' ? core.store.findTask(taskId) : undefined;
      if (!task)
        throw new MockInputError(`Task ${String(taskId).slice(0, 200)}`, [
          {
            path: '/taskId',
            message: `names no task the fake holds (its history keeps the last ${core.store.maxTasks})`,
          },
        ]);
      return toControlPlaneTask(task);
    },
    async setAgentStatus(agentId, status) {
      const checked = validateSchema('AgentStatus', status);
      if (!checked.ok)
        throw new MockInputError(
          'The status',
          checked.errors.map((e) => ({ ...e, path: `/status${e.path}` })),
        );
      const agent = core.store.setStatus(agentId, status);
      if (!agent)
        throw new MockInputError(`Agent ${agentId}`, [{ path: '/agentId', message: 'names no agent the fake holds' }]);
      await core.persist();
      return structuredClone(agent);
    },
    setScenarios: (config) => core.configureScenarios(config),
    advanceClock: (ms) => core.advanceClock(ms),
    async reset() {
      hooks.resetHandlers?.();
      core.reset();
      await core.persist();
    },
    async writePact(options) {
      const errors = pactOptionErrors(options);
      if (errors.length > 0) throw new MockInputError('The pact options', errors);
      const { writeFile } = hooks;
      if (writeFile === undefined)
        throw new MockInputError('writePact', [
          {
            path: '/file',
            message:
              'cannot be written here (no file system): write the pact from Node (setupMockServer) or with agent-registry-kit pact export',
          },
        ]);
      const text = await core.pact.text(options);
      const written = await writingPact(() => writeFile(options.file, text));
      return { file: options.file, interactions: written?.interactions ?? core.pact.size };
    },
  };
}
