// Friendly names for the generated types, so no other module spells components["schemas"]["…"].
import type { components, operations as generatedOperations, paths } from './openapi-types.generated.ts';
import type { ParameterDefaults, RequestDefaults, SchemaDefaults } from './request-defaults.generated.ts';

/** Every schema of the document by name: a handler types the view it writes by the schema it answers. */
export type Schemas = components['schemas'];

export type Agent = Schemas['Agent'];
export type AgentId = Schemas['AgentId'];
export type AgentCategory = Schemas['AgentCategory'];
export type AgentModel = Schemas['AgentModel'];
export type AgentStatus = Schemas['AgentStatus'];
export type Tokenomics = Schemas['Tokenomics'];
export type Performance = Schemas['Performance'];
export type Statistics = Schemas['Statistics'];
export type DeployRequest = Schemas['DeployRequest'];
export type DeployResult = Schemas['DeployResult'];
export type ExecuteRequest = Schemas['ExecuteRequest'];
export type TaskId = Schemas['TaskId'];
export type TaskPriority = Schemas['TaskPriority'];
export type TaskStatus = Schemas['TaskStatus'];
export type TaskSubmission = Schemas['TaskSubmission'];
export type Problem = Schemas['Problem'];
export type ValidationError = Schemas['ValidationError'];

/** The operationIds of the API. */
export type OperationId = keyof generatedOperations;
/** The JSON request body an operation declares (never when it takes none). */
export type JsonRequestBody<K extends OperationId> = generatedOperations[K] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
/** Operations that take a JSON request body. */
export type BodyOperationId = {
  [K in OperationId]: [JsonRequestBody<K>] extends [never] ? never : K;
}[OperationId];
/** What each body operation holds once validated: the fields with a `default` in the spec are then always set. */
export type RequestBodies = {
  [K in BodyOperationId]: JsonRequestBody<K> &
    Required<
      Pick<
        JsonRequestBody<K>,
        (K extends keyof RequestDefaults ? RequestDefaults[K] : never) & keyof JsonRequestBody<K>
      >
    >;
};
/**
 * A component schema as a validated request body holds it: the properties with a `default` in the spec are set.
 * @example function deploy(request: WithDefaults<'DeployRequest'>) { request.revenueShare; } // number, never undefined
 */
export type WithDefaults<Name extends keyof Schemas> = Schemas[Name] &
  Required<
    Pick<Schemas[Name], (Name extends keyof SchemaDefaults ? SchemaDefaults[Name] : never) & keyof Schemas[Name]>
  >;
/** The path parameters of an operation by name, as the dispatch hands them over (decoded, coerced and validated). */
export type PathParameters<K extends OperationId> = generatedOperations[K]['parameters'] extends {
  path: infer Params extends object;
}
  ? Params
  : Record<string, never>;

/** The parameters an operation declares in a location other than the path, as openapi-typescript types them. */
type DeclaredParameters<K extends OperationId, L extends 'query' | 'header' | 'cookie'> = [
  NonNullable<generatedOperations[K]['parameters'][L]>,
] extends [never]
  ? Record<string, never>
  : NonNullable<generatedOperations[K]['parameters'][L]>;
/** The names in a location the spec gives a default. */
type DefaultedParameters<K extends OperationId, L extends string> = K extends keyof ParameterDefaults
  ? ParameterDefaults[K] extends { [P in L]: infer Names }
    ? Names
    : never
  : never;
/** A location's parameters once read: validated, in the schema's types, the ones with a default always set. */
type ReadLocation<K extends OperationId, L extends 'query' | 'header' | 'cookie'> = DeclaredParameters<K, L> &
  Required<Pick<DeclaredParameters<K, L>, DefaultedParameters<K, L> & keyof DeclaredParameters<K, L>>>;
/**
 * The query parameters of an operation by name, as the fake's dispatch hands them over (read by style, coerced,
 * validated, defaulted).
 * @example function list(query: QueryParameters<'listAgents'>) { query.limit; } // number, never undefined (default 20)
 */
export type QueryParameters<K extends OperationId> = ReadLocation<K, 'query'>;
/** The header parameters of an operation by the name the spec gives them, read as QueryParameters are. */
export type HeaderParameters<K extends OperationId> = ReadLocation<K, 'header'>;
/** The cookie parameters of an operation by name, read as QueryParameters are. */
export type CookieParameters<K extends OperationId> = ReadLocation<K, 'cookie'>;

export type { components, paths };
export type { generatedOperations as OperationTypes };

/** The statuses an operation documents, as numbers. */
export type DocumentedStatus<K extends OperationId> = keyof generatedOperations[K]['responses'] & number;
/** The documented statuses of an operation that are errors (4xx and 5xx). */
export type ErrorStatus<K extends OperationId> = {
  [S in DocumentedStatus<K>]: `${S}` extends `4${string}` | `5${string}` ? S : never;
}[DocumentedStatus<K>];
/** The body the spec documents for `status` of an operation (its JSON or problem+json schema). */
export type ResponseBody<
  K extends OperationId,
  S extends DocumentedStatus<K>,
> = generatedOperations[K]['responses'][S] extends {
  content: infer Content;
}
  ? Content[keyof Content]
  : never;

type PathMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
/** An operation named by its method and the spec's path template, e.g. `GET /v1/agents/{agentId}`. */
export type OperationRoute = {
  [P in keyof paths]: {
    [M in PathMethod]: [NonNullable<paths[P][M]>] extends [never] ? never : `${Uppercase<M>} ${P & string}`;
  }[PathMethod];
}[keyof paths];
/** An operationId, or the same operation as `METHOD /path/{template}`. */
export type OperationKey = OperationId | OperationRoute;
/** The operationId an OperationKey names. */
export type OperationOf<Key extends OperationKey> = Key extends OperationId
  ? Key
  : Key extends `${infer M} ${infer P}`
    ? {
        [K in OperationId]: P extends keyof paths
          ? Lowercase<M> extends keyof paths[P]
            ? [generatedOperations[K]] extends [NonNullable<paths[P][Lowercase<M>]>]
              ? [NonNullable<paths[P][Lowercase<M>]>] extends [generatedOperations[K]]
                ? K
                : never
              : never
            : never
          : never;
      }[OperationId]
    : never;
