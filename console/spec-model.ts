// What the console reads of spec/openapi.yaml: the operations with their documented statuses, and the Agent schema's
// fields for the seed form. Derived from the document, so a new operation or field shows without a change here.
import { openapiDocument } from '../spec/openapi-document.generated.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../spec/json-pointer.ts';
import { operations } from '../spec/operations.ts';

/** One operation of the spec as the console lists it. */
export interface ConsoleOperation {
  operationId: string;
  method: string;
  path: string;
  statuses: number[];
  /** The error statuses (4xx, 5xx) a scenario may answer. */
  errorStatuses: number[];
}

/** Every operation of spec/openapi.yaml, in document order. */
export const consoleOperations: ConsoleOperation[] = [...operations.values()].map((operation) => {
  const statuses = [...operation.responses.keys()].sort((a, b) => a - b);
  return {
    operationId: operation.operationId,
    method: operation.method,
    path: operation.path,
    statuses,
    errorStatuses: statuses.filter((status) => status >= 400),
  };
});

/** One leaf of a schema the seed form shows as an input, at its JSON Pointer in the body. */
export interface FormField {
  pointer: string;
  label: string;
  kind: 'text' | 'number' | 'integer' | 'select' | 'list';
  options: string[];
  minimum: number | undefined;
  maximum: number | undefined;
  maxLength: number | undefined;
  description: string;
  /** Where the field's rule comes from: the service description (seed) or a decision of the spec (assumption). */
  assumption: boolean;
}

function resolve(node: JsonValue | undefined): JsonObject {
  let current = node;
  for (let depth = 0; depth < 16 && isJsonObject(current) && typeof current.$ref === 'string'; depth += 1) {
    let target: JsonValue | undefined = openapiDocument as unknown as JsonValue;
    for (const token of current.$ref.replace(/^#\//, '').split('/'))
      target = isJsonObject(target) ? target[token] : undefined;
    current = target;
  }
  return isJsonObject(current) ? current : {};
}

const numberOf = (value: JsonValue | undefined): number | undefined => (typeof value === 'number' ? value : undefined);

function leaf(pointer: string, name: string, schema: JsonObject): FormField | undefined {
  const description = typeof schema.description === 'string' ? schema.description : '';
  const common = {
    pointer,
    label: name,
    options: [] as string[],
    minimum: numberOf(schema.minimum),
    maximum: numberOf(schema.maximum),
    maxLength: numberOf(schema.maxLength),
    description,
    assumption: schema['x-assumption'] !== undefined,
  };
  if (Array.isArray(schema.enum)) return { ...common, kind: 'select', options: schema.enum.map(String) };
  if (schema.type === 'array') return { ...common, kind: 'list' };
  if (schema.type === 'integer') return { ...common, kind: 'integer' };
  if (schema.type === 'number') return { ...common, kind: 'number' };
  if (schema.type === 'string') return { ...common, kind: 'text' };
  return undefined;
}

/**
 * The inputs of a form for a schema of the spec's components, nested objects flattened to their leaves.
 * @example formFields('Agent').map((field) => field.pointer) // ['/agentId', '/name', …, '/tokenomics/price', …]
 */
export function formFields(schemaName: string): FormField[] {
  const schemas = isJsonObject(openapiDocument.components) ? (openapiDocument.components as JsonObject).schemas : {};
  const root = resolve(isJsonObject(schemas) ? schemas[schemaName] : undefined);
  const fields: FormField[] = [];
  const walk = (schema: JsonObject, prefix: string, depth: number): void => {
    const properties = isJsonObject(schema.properties) ? schema.properties : {};
    for (const [name, raw] of Object.entries(properties)) {
      const property = resolve(raw);
      const pointer = `${prefix}/${name}`;
      if (property.type === 'object' && depth < 4) walk(property, pointer, depth + 1);
      else {
        const field = leaf(pointer, pointer.slice(1).replaceAll('/', ' › '), property);
        if (field) fields.push(field);
      }
    }
  };
  walk(root, '', 0);
  return fields;
}
