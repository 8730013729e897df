// The one place that fills an operation's path parameters and finds a valid value for each: a value comes from the
// answer of the operation the spec's links name as its source (a deploy's agentId, an execute's taskId, …), created in
// order when one source itself needs a path parameter. Contract checks, diff, bench and the tests all fill paths here.
import {
  getAtPointer,
  getOperation,
  matchTemplate,
  parameterSource,
  type JsonValue,
  type OperationId,
  type ParameterSource,
} from '../../spec/index.ts';

/** Values of path parameters by name, e.g. `{ agentId: 'agt_1' }`. */
export type PathValues = Readonly<Record<string, string>>;

/**
 * The operation's path with each parameter filled in (percent-encoded); a missing value leaves the segment empty.
 * @example fillPath(operationId, { agentId: 'agt 1' }) // '/v1/agents/agt%201/execute' for the execute operation
 */
export function fillPath(operationId: OperationId, values: PathValues): string {
  return getOperation(operationId).path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? ''),
  );
}

/**
 * The path parameters of a concrete path, decoded, when the path matches the operation's template (query ignored).
 * @example matchPath(operationId, '/v1/agents/agt_1') // { agentId: 'agt_1' } for the retrieve operation
 */
export function matchPath(operationId: OperationId, path: string): PathValues | undefined {
  const operation = getOperation(operationId);
  // Empty values match: a guard reading what a client is about to send must still see (and refuse) an empty id.
  const raw = matchTemplate(operation.path, path.split('?')[0] ?? '', { allowEmpty: true });
  if (!raw) return undefined;
  const values = (decode: (text: string) => string): PathValues =>
    Object.fromEntries(operation.pathParameters.map((name, i) => [name, decode(raw[i] ?? '')]));
  try {
    return values(decodeURIComponent);
  } catch {
    // Not valid percent-encoding: the raw text is what a server sees.
    return values((text) => text);
  }
}

/**
 * The creations that give every path parameter of an operation a valid value, sources first: for a parameter whose
 * source itself takes a path parameter (a task's id comes from an execute on an agent), that one comes earlier.
 * Throws when a parameter has no link in the spec (add one to spec/openapi.yaml).
 * @example creationSteps(operationId).map((step) => step.creator) // [the deploy] for any operation on an agent
 */
export function creationSteps(operationId: OperationId, known: ReadonlySet<string> = new Set()): ParameterSource[] {
  const steps: ParameterSource[] = [];
  const have = new Set(known);
  const visit = (id: OperationId, trail: readonly string[]): void => {
    for (const parameter of getOperation(id).pathParameters) {
      if (have.has(parameter)) continue;
      if (trail.includes(parameter)) throw new Error(`the links of ${parameter} form a cycle: ${trail.join(' -> ')}`);
      const source = parameterSource(parameter, id);
      if (!source)
        throw new Error(`no link in the spec says where a valid ${parameter} (a path parameter of ${id}) comes from`);
      visit(source.creator, [...trail, parameter]);
      have.add(parameter);
      steps.push(source);
    }
  };
  visit(operationId, []);
  return steps;
}

/** Sends a valid request of `creator` (its path filled with `values`) and returns its parsed answer, or throws. */
export type Create = (creator: OperationId, values: PathValues) => Promise<unknown>;

/**
 * Valid values for every path parameter of an operation: `known` ones kept, the others created through `create` in
 * the order of {@link creationSteps}, each read from its source's answer at the link's pointer.
 * @example const values = await findPathValues(operationId, create); send(fillPath(operationId, values))
 */
export async function findPathValues(
  operationId: OperationId,
  create: Create,
  known: PathValues = {},
): Promise<PathValues> {
  const values: Record<string, string> = { ...known };
  for (const step of creationSteps(operationId, new Set(Object.keys(known)))) {
    const answer = await create(step.creator, values);
    const value = getAtPointer(answer as JsonValue, step.field);
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new Error(`${step.creator} answered without ${step.field.slice(1)}, which ${step.parameter} comes from`);
    values[step.parameter] = String(value);
  }
  return values;
}
