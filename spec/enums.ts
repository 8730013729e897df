// The enum lists of the document's schemas. The lists are literals generated from spec/openapi.yaml
// (enums.generated.ts), so an app that imports one bundles its values and not the document; schemaEnum reads a list
// from the document itself.
import { getAtPointer } from './json-pointer.ts';
import { openapiDocument } from './openapi-document.generated.ts';

export { agentCategories, agentModels, agentStatuses, taskPriorities, taskStatuses } from './enums.generated.ts';

/**
 * The `enum` of `#/components/schemas/<name>`, in document order, read from the document. The type argument is the
 * generated type of that schema; spec/enums.test.ts checks each generated list is exactly what its schema accepts.
 * @example schemaEnum<AgentStatus>('AgentStatus') // ['active', 'paused', 'deprecated']
 */
export function schemaEnum<T extends string>(name: string): readonly T[] {
  const values = getAtPointer(openapiDocument, `/components/schemas/${name}/enum`);
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string'))
    throw new Error(`#/components/schemas/${name} has no enum of strings`);
  return Object.freeze(values as T[]);
}
