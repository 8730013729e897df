// The JSON snapshot the browser worker keeps in Web Storage, and its check: a page's storage is input like any file (an
// extension, a user in devtools, or an older kit may have written it), so every record passes the SQLite loader's checks.
import type { Agent } from '../../../spec/index.ts';
import { catalogueIds } from '../../state/catalogue.ts';
import type { SavedTask } from '../../state/storage.ts';
import { checkDocument, checkStoredAgent, checkStoredTask, type Checked } from '../stored-records.ts';

/** Marks a snapshot as this kit's, in this layout; anything else under the key is foreign. */
export const SNAPSHOT_FORMAT = 'agent-registry-kit/web-storage@1';

/** The documents the core and the store keep; a snapshot naming any other was not written by this kit. */
const DOCUMENTS = ['random', 'clock', 'scenarios', 'overrides', 'coverage'] as const;

/** One agent of the table as saved (a changed catalogue agent has its index, a deployed one null). */
interface SnapshotAgent {
  agent: Agent;
  tasksFailed: number;
  catalogueIndex: number | null;
}

/** Everything the storage holds, as JSON. */
export interface WebSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  seed: number;
  catalogueSize: number;
  documents: Record<string, unknown>;
  agents: SnapshotAgent[];
  tasks: SavedTask[];
}

/** What a snapshot must have been made for, and how much it may hold. */
export interface SnapshotExpectations {
  seed: number;
  catalogueSize: number;
  /** The store's task bound: the ledger never holds more than twice it. */
  maxTasks: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const refuse = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/**
 * Parses and checks a snapshot's text; the first fault refuses all of it (the caller then starts from the seed).
 * @example checkSnapshot('{"format":"x"}', { seed: 42, catalogueSize: 36, maxTasks: 10_000 }).ok // false
 */
export function checkSnapshot(text: string, expected: SnapshotExpectations): Checked<WebSnapshot> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('is not valid JSON');
  }
  if (!isObject(value) || value.format !== SNAPSHOT_FORMAT) return refuse('was not written by this kit (or version)');
  const extra = Object.keys(value).find((key) => !SNAPSHOT_KEYS.includes(key));
  if (extra !== undefined) return refuse(`has an unknown member ${extra.slice(0, 60)}`);
  if (value.seed !== expected.seed || value.catalogueSize !== expected.catalogueSize)
    return refuse(`was made for another seed or catalogue size than ${expected.seed} and ${expected.catalogueSize}`);
  const problem =
    documentsProblem(value.documents) ?? tasksProblem(value.tasks, expected) ?? agentsProblem(value.agents, expected);
  return problem === undefined ? { ok: true, value: value as unknown as WebSnapshot } : refuse(problem);
}

const SNAPSHOT_KEYS: readonly string[] = ['format', 'seed', 'catalogueSize', 'documents', 'agents', 'tasks'];

function documentsProblem(documents: unknown): string | undefined {
  if (!isObject(documents)) return 'has no documents object';
  for (const [name, value] of Object.entries(documents)) {
    if (!(DOCUMENTS as readonly string[]).includes(name)) return `holds an unknown document ${name.slice(0, 60)}`;
    const checked = checkDocument(name, value);
    if (!checked.ok) return `holds an invalid ${name} document: ${checked.reason}`;
  }
  return undefined;
}

function tasksProblem(tasks: unknown, expected: SnapshotExpectations): string | undefined {
  if (!Array.isArray(tasks)) return 'has no tasks array';
  if (tasks.length > 2 * expected.maxTasks) return `holds ${tasks.length} tasks, more than twice maxTasks`;
  const seen = new Set<string>();
  for (const [index, saved] of tasks.entries()) {
    if (!isObject(saved) || typeof saved.inHistory !== 'boolean' || Object.keys(saved).length !== 2)
      return `holds a task ${index} that is not { task, inHistory }`;
    const checked = checkStoredTask(JSON.stringify(saved.task));
    if (!checked.ok) return `holds an invalid task ${index}: ${checked.reason}`;
    if (seen.has(checked.value.taskId)) return `holds the task ${checked.value.taskId} twice`;
    seen.add(checked.value.taskId);
  }
  return undefined;
}

function agentsProblem(agents: unknown, expected: SnapshotExpectations): string | undefined {
  if (!Array.isArray(agents)) return 'has no agents array';
  let ids: string[] | undefined;
  const seen = new Set<string>();
  for (const [index, saved] of agents.entries()) {
    if (!isObject(saved) || Object.keys(saved).length !== 3 || !isCount(saved.tasksFailed))
      return `holds an agent ${index} that is not { agent, tasksFailed, catalogueIndex }`;
    const checked = checkStoredAgent(JSON.stringify(saved.agent));
    if (!checked.ok) return `holds an invalid agent ${index}: ${checked.reason}`;
    const agentId = checked.value.agentId;
    const catalogueIndex = saved.catalogueIndex;
    if (catalogueIndex !== null) {
      if (!isCount(catalogueIndex) || catalogueIndex >= expected.catalogueSize)
        return `holds an agent ${agentId} with a catalogue index out of range`;
      ids ??= catalogueIds(expected.seed, expected.catalogueSize);
      if (ids[catalogueIndex] !== agentId)
        return `holds an agent ${agentId} that is not catalogue agent ${catalogueIndex}`;
    }
    if (seen.has(agentId)) return `holds the agent ${agentId} twice`;
    seen.add(agentId);
  }
  return undefined;
}
