// The enum lists of the document's schemas, read from spec/openapi.yaml so no module restates them.
import { getAtPointer } from './json-pointer.ts';
import { openapiDocument } from './openapi-document.generated.ts';
import type { AgentCategory, AgentModel, AgentStatus, TaskPriority, TaskStatus } from './types.ts';

/**
 * The `enum` of `#/components/schemas/<name>`, in document order. The type argument is the generated type of that
 * schema; spec/enums.test.ts checks each list is exactly what its schema accepts.
 * @example schemaEnum<AgentStatus>('AgentStatus') // ['active', 'paused', 'deprecated']
 */
export function schemaEnum<T extends string>(name: string): readonly T[] {
  const values = getAtPointer(openapiDocument, `/components/schemas/${name}/enum`);
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string'))
    throw new Error(`#/components/schemas/${name} has no enum of strings`);
  return Object.freeze(values as T[]);
}

/** Every agent category, in document order (the seeded catalogue cycles through them in this order). */
export const agentCategories = schemaEnum<AgentCategory>('AgentCategory');
/** Every model, in document order. */
export const agentModels = schemaEnum<AgentModel>('AgentModel');
/** Every agent status, in document order. */
export const agentStatuses = schemaEnum<AgentStatus>('AgentStatus');
/** Every task status, in document order. */
export const taskStatuses = schemaEnum<TaskStatus>('TaskStatus');
/** Every task priority, in document order. */
export const taskPriorities = schemaEnum<TaskPriority>('TaskPriority');
