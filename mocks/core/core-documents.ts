// The core's small documents in its storage (clock offset, scenarios, overrides, coverage counts): restored at start,
// written with the batches, and followed when a batch is rolled back or another process sharing the storage changes them.
import type { OperationId } from '../../spec/index.ts';
import type { Clock } from '../domain/clock.ts';
import type { Coverage } from './steering/coverage.ts';
import type { BuiltOverride, OverrideInput } from './steering/overrides.ts';
import { parseScenarioConfig, type ScenarioConfig, type Scenarios } from './steering/scenarios.ts';
import type { Storage } from '../state/storage.ts';
import { OVERRIDES_DOCUMENT, parseStoredOverrides } from './steering/stored-overrides.ts';

/** Names of the core's documents in the storage. */
const CLOCK_DOCUMENT = 'clock';
const SCENARIOS_DOCUMENT = 'scenarios';
const COVERAGE_DOCUMENT = 'coverage';

export interface CoreDocumentParts {
  storage: Storage;
  clock: Clock;
  scenarios: Scenarios;
  coverage: Coverage;
  /** The answers the API dispatch serves instead of its own, by operation: kept here as the stored document says. */
  overrides: Map<OperationId, BuiltOverride['response']>;
  /** Scenarios to start with when the storage holds none. */
  scenariosAtStart: ScenarioConfig | undefined;
  /** False for a session's core: the coverage it shares belongs to the default core. */
  ownsCoverage: boolean;
  /** MockCoreOptions.watchStoredChanges: how the core learns that another process changed what is stored. */
  watchStoredChanges: ((changed: () => void) => void) | undefined;
}

export interface CoreDocuments {
  /** Resolves once every change made so far is durable (the coverage counts ride along). */
  persist(): Promise<void>;
  /** Moves the clock forward once the new offset is durable: a clock never runs backwards, so never on a failed write. */
  advanceClock(ms: number): Promise<void>;
  /** Replaces the scenarios, durably. */
  saveScenarios(config: ScenarioConfig): Promise<void>;
  /** Sets (or replaces) the override of one operation, durably. */
  setOverride(override: BuiltOverride): Promise<void>;
  /** Removes every override, durably. */
  clearOverrides(): Promise<void>;
  /**
   * Counts one answer of an operation's override: one set for a number of times (`once`, `times`) counts down and is
   * removed after its last; true when that changed the document (written with the current batch).
   */
  overrideUsed(operationId: OperationId): boolean;
  /** Removes one operation's override, durably; false when it had none. */
  removeOverride(operationId: OperationId): Promise<boolean>;
  /** After a reset of scenarios, overrides and clock: records them as the reset left them (part of the current batch). */
  afterReset(): void;
}

/**
 * Restores the documents the storage holds (what it holds wins over the options: a restart resumes) and keeps them.
 * @example const documents = createCoreDocuments({ storage, clock, scenarios, coverage, scenariosAtStart: {}, ownsCoverage: true });
 */
export function createCoreDocuments(parts: CoreDocumentParts): CoreDocuments {
  const { storage, clock, scenarios, coverage } = parts;
  const savedCoverage = parts.ownsCoverage ? storage.readDocument(COVERAGE_DOCUMENT) : undefined;
  if (savedCoverage !== undefined) coverage.restore(savedCoverage);
  let coverageWritten = coverage.changes;
  // Durable storage was checked when it was opened.
  const savedScenarios = (): ScenarioConfig | undefined => {
    const saved = storage.readDocument(SCENARIOS_DOCUMENT);
    return saved === undefined ? undefined : parseScenarioConfig(saved).config;
  };
  const catchUpClock = (): void => {
    const stored = storage.readDocument(CLOCK_DOCUMENT);
    if (typeof stored === 'number' && stored > clock.offset) clock.advance(stored - clock.offset);
  };
  catchUpClock();
  scenarios.configure(savedScenarios() ?? parts.scenariosAtStart ?? {});
  const overrides = createOverrideDocument(storage, parts.overrides);
  /** The clock offset including advances still being written. */
  let clockTarget = clock.offset;
  storage.onRollback(() => {
    coverageWritten = -1;
    // Only when they differ: configuring restarts the rate-limit window, and another replica's change lands here too.
    const storedScenarios = savedScenarios() ?? {};
    if (JSON.stringify(storedScenarios) !== JSON.stringify(scenarios.config)) scenarios.configure(storedScenarios);
    // A reset of the batch may have moved the clock back; forward is the one way a clock moves, so it is re-advanced.
    catchUpClock();
    clockTarget = clock.offset;
    // Another replica's PUT /__mock/overrides lands here too: every replica answers with the same overrides.
    overrides.follow();
  });
  // Another process's reset moves the stored clock back; this core follows it (a rollback never needs to).
  parts.watchStoredChanges?.(() => {
    const stored = storage.readDocument(CLOCK_DOCUMENT);
    if (typeof stored !== 'number' || stored >= clock.offset || !clock.reset) return;
    clock.reset();
    catchUpClock();
    clockTarget = clock.offset;
  });
  // The counts ride along with a batch that is written anyway (a mutation, DELETE /__mock/coverage, the shutdown's):
  // a write per GET would make every read a write.
  const persist = (): Promise<void> => {
    if (parts.ownsCoverage && storage.durable && coverage.changes !== coverageWritten) {
      storage.writeDocument(COVERAGE_DOCUMENT, coverage.toJSON());
      coverageWritten = coverage.changes;
    }
    return storage.commit();
  };
  return {
    persist,
    async advanceClock(ms) {
      // From the clock as it is now too: a test may have moved an injected clock directly.
      clockTarget = Math.max(clockTarget, clock.offset) + Math.max(0, ms);
      const target = clockTarget;
      if (storage.durable) storage.writeDocument(CLOCK_DOCUMENT, target);
      await persist();
      if (target > clock.offset) clock.advance(target - clock.offset);
    },
    async saveScenarios(config) {
      scenarios.configure(config);
      if (storage.durable) storage.writeDocument(SCENARIOS_DOCUMENT, config);
      await persist();
    },
    async setOverride(override) {
      overrides.set(override);
      await persist();
    },
    async clearOverrides() {
      overrides.clear();
      await persist();
    },
    overrideUsed: (operationId) => overrides.used(operationId),
    async removeOverride(operationId) {
      if (!overrides.delete(operationId)) return false;
      await persist();
      return true;
    },
    afterReset() {
      clockTarget = clock.offset;
      overrides.clear();
      if (!storage.durable) return;
      storage.writeDocument(SCENARIOS_DOCUMENT, {});
      storage.writeDocument(CLOCK_DOCUMENT, clock.offset);
    },
  };
}

/**
 * The overrides document and the table the dispatch reads, kept in step: what the storage holds at start, each change
 * written to it, and what it holds after a rollback or another replica's change.
 */
function createOverrideDocument(
  storage: Storage,
  table: Map<OperationId, BuiltOverride['response']>,
): {
  set(override: BuiltOverride): void;
  clear(): void;
  delete(operationId: OperationId): boolean;
  follow(): void;
  used(operationId: OperationId): boolean;
} {
  // What each override was built from, as JSON text, kept only where it is written: a parsed body costs many times its
  // text (most of all a body of `[{},{},…]`), and in memory the answer's text in `table` is all that is served.
  const inputs = new Map<OperationId, string>();
  /** The answers left of each override set for a number of times, and what it was built from (to store the count). */
  const counted = new Map<OperationId, { left: number; input: OverrideInput }>();
  const keep = (operationId: OperationId, input: OverrideInput): void => {
    const times = input.times ?? (input.once === true ? 1 : undefined);
    if (times === undefined) counted.delete(operationId);
    else counted.set(operationId, { left: times, input });
    if (storage.durable) inputs.set(operationId, JSON.stringify(input));
  };
  const apply = (list: readonly BuiltOverride[]): void => {
    table.clear();
    inputs.clear();
    counted.clear();
    for (const { operation, response, input } of list) {
      table.set(operation.operationId, response);
      keep(operation.operationId, input);
    }
  };
  const inputsText = (texts: Iterable<string>): string => `[${[...texts].join(',')}]`;
  const stored = (): BuiltOverride[] => {
    // A durable storage checked the document when it was opened (or pulled); this builds the answers again.
    const parsed = parseStoredOverrides(storage.readDocument(OVERRIDES_DOCUMENT) ?? []);
    return parsed.ok ? parsed.value : [];
  };
  const write = (): void => {
    if (storage.durable) storage.writeDocument(OVERRIDES_DOCUMENT, JSON.parse(inputsText(inputs.values())) as unknown);
  };
  if (storage.durable) apply(stored());
  return {
    set(override) {
      table.set(override.operation.operationId, override.response);
      keep(override.operation.operationId, override.input);
      write();
    },
    clear() {
      apply([]);
      write();
    },
    used(operationId) {
      const count = counted.get(operationId);
      if (count === undefined) return false;
      count.left -= 1;
      if (count.left <= 0) {
        counted.delete(operationId);
        table.delete(operationId);
        inputs.delete(operationId);
      } else if (storage.durable) {
        const { once: _once, ...rest } = count.input;
        inputs.set(operationId, JSON.stringify({ ...rest, times: count.left }));
      }
      write();
      return true;
    },
    delete(operationId) {
      if (!table.delete(operationId)) return false;
      counted.delete(operationId);
      inputs.delete(operationId);
      write();
      return true;
    },
    follow() {
      if (!storage.durable) return;
      const list = stored();
      // Only when they differ: a rollback of this replica's own unrelated batch leaves the table as it is.
      if (inputsText(list.map((o) => JSON.stringify(o.input))) !== inputsText(inputs.values())) apply(list);
    },
  };
}
