// How the operations connect, read from the document's OpenAPI `links`: which operation's answer supplies a valid value
// of a path parameter, and so which operation creates what and which ones consume it. Everything that fills a path or
// follows "create, then use" (contract checks, diff, bench, coverage) asks here instead of naming operations.
import { openapiDocument } from './openapi-document.generated.ts';
import { isJsonObject, parsePointer, toPointer, type JsonObject } from './json-pointer.ts';
import { operationsOf, type OperationSpec } from './operations.ts';
import type { OperationId } from './types.ts';

/** One link of the document: the answer of `from` (at `status`) supplies `to`'s path parameter `parameter`. */
export interface OperationLink {
  name: string;
  from: OperationId;
  status: number;
  to: OperationId;
  parameter: string;
  /** JSON pointer into `from`'s response body, from the link's `$response.body#/...` expression. */
  field: string;
  /** Pointer of the link object in the document. */
  pointer: string;
}

/** What the links say about one path parameter. */
export interface ParameterSource {
  parameter: string;
  /** The operation whose success answer holds a new valid value (the first link that supplies the parameter). */
  creator: OperationId;
  status: number;
  field: string;
  /** The link it was found through. */
  link: OperationLink;
}

const bodyExpression = /^\$response\.body#(\/.*)?$/;

function linksOfResponse(from: OperationSpec, status: number, links: JsonObject, pointer: string): OperationLink[] {
  return Object.entries(links).flatMap(([name, link]) => {
    if (!isJsonObject(link) || typeof link.operationId !== 'string' || !isJsonObject(link.parameters)) return [];
    const to = link.operationId as OperationId;
    return Object.entries(link.parameters).flatMap(([parameter, expression]) => {
      const match = typeof expression === 'string' ? bodyExpression.exec(expression) : null;
      if (!match) return [];
      const field = toPointer(parsePointer(match[1] ?? ''));
      return [{ name, from: from.operationId, status, to, parameter, field, pointer: `${pointer}/${name}` }];
    });
  });
}

const linksByDocument = new WeakMap<JsonObject, readonly OperationLink[]>();

/**
 * Every link of a version of the document whose value comes from a response body, in document order.
 * @example linksOf(openapiDocument).map((l) => `${l.from} -> ${l.to}.${l.parameter}`)
 */
export function linksOf(document: JsonObject = openapiDocument): readonly OperationLink[] {
  let found = linksByDocument.get(document);
  if (found) return found;
  found = [...operationsOf(document).values()].flatMap((operation) =>
    [...operation.responses.values()].flatMap((response) => {
      // The response object after its $ref, so a shared response's links count for every operation using it.
      const links = getObject(getObject(document, response.pointer), 'links');
      return links ? linksOfResponse(operation, response.status, links, `${response.pointer}/links`) : [];
    }),
  );
  linksByDocument.set(document, found);
  return found;
}

function getObject(node: unknown, key: string): JsonObject | undefined {
  if (!isJsonObject(node)) return undefined;
  if (key.startsWith('/'))
    return parsePointer(key).reduce<JsonObject | undefined>(
      (at, token) => (at && isJsonObject(at[token]) ? (at[token] as JsonObject) : undefined),
      node,
    );
  const value = node[key];
  return isJsonObject(value) ? value : undefined;
}

/**
 * Where a valid value of a path parameter comes from: a link that supplies it, to this operation or (keyed by the
 * parameter's name) to any other, so an operation added with an `{agentId}` needs no link of its own to be filled.
 * @example parameterSource('agentId')?.field // '/agentId'
 */
export function parameterSource(
  parameter: string,
  operationId?: OperationId,
  document: JsonObject = openapiDocument,
): ParameterSource | undefined {
  const links = linksOf(document).filter((link) => link.parameter === parameter);
  const link = links.find((candidate) => candidate.to === operationId) ?? links[0];
  return link && { parameter, creator: link.from, status: link.status, field: link.field, link };
}

/** The operations of the document by role, derived from its links and its path templates. */
export interface OperationRoles {
  /** Operations whose answer supplies a linked parameter and that need no path parameter themselves (e.g. a deploy). */
  creators: OperationId[];
  /** The parameters each operation's answer supplies, by operation. */
  supplies: ReadonlyMap<OperationId, ParameterSource[]>;
  /** For a supplied parameter, the GET whose path ends with it: what reads back the thing just created. */
  readBack: ReadonlyMap<string, OperationId>;
  /** Operations with the parameter in their path, by parameter. */
  consumers: ReadonlyMap<string, OperationId[]>;
}

const rolesByDocument = new WeakMap<JsonObject, OperationRoles>();

/**
 * Which operation creates what and which consume it, from the links and the path parameters' names.
 * @example const roles = operationRoles(); const creator = roles.creators[0]; roles.readBack.get('agentId')
 */
export function operationRoles(document: JsonObject = openapiDocument): OperationRoles {
  const cached = rolesByDocument.get(document);
  if (cached) return cached;
  const operations = [...operationsOf(document).values()];
  const parameters = [...new Set(operations.flatMap((operation) => operation.pathParameters))];
  const supplies = new Map<OperationId, ParameterSource[]>();
  for (const parameter of parameters) {
    const source = parameterSource(parameter, undefined, document);
    if (source) supplies.set(source.creator, [...(supplies.get(source.creator) ?? []), source]);
  }
  const consumers = new Map(
    parameters.map((parameter) => [
      parameter,
      operations.filter((o) => o.pathParameters.includes(parameter)).map((o) => o.operationId),
    ]),
  );
  const readBack = new Map<string, OperationId>();
  for (const parameter of parameters) {
    const reader = operations.find((o) => o.method === 'GET' && o.path.endsWith(`/{${parameter}}`));
    if (reader && supplies.size > 0) readBack.set(parameter, reader.operationId);
  }
  const creators = [...supplies.keys()].filter((id) => operationsOf(document).get(id)?.pathParameters.length === 0);
  const roles = { creators, supplies, readBack, consumers };
  rolesByDocument.set(document, roles);
  return roles;
}

/** One identifier a write mints: a top-level field of its success answer. */
export interface MintedId {
  field: string;
  /** Pointer of the identifier's schema (a `#/components/schemas/<Name>Id`). */
  schemaPointer: string;
}

/**
 * The identifiers a POST's success answer mints: its top-level fields whose schema is a named `…Id` schema (each must
 * be new on every accepted request), linked or not.
 * @example mintedIds(creator).map((id) => id.field) // ['agentId'] for the deploy
 */
export function mintedIds(operationId: OperationId, document: JsonObject = openapiDocument): MintedId[] {
  const operation = operationsOf(document).get(operationId);
  if (operation?.method !== 'POST') return [];
  const success = [...operation.responses.values()].find((r) => r.status >= 200 && r.status < 300);
  const media = getObject(getObject(document, success?.pointer ?? '/-'), 'content');
  const schema = getObject(getObject(media, 'application/json'), 'schema');
  const resolved = typeof schema?.$ref === 'string' ? getObject(document, schema.$ref.slice(1)) : schema;
  const properties = getObject(resolved, 'properties') ?? {};
  return Object.entries(properties).flatMap(([field, property]) => {
    const ref = isJsonObject(property) && typeof property.$ref === 'string' ? property.$ref : '';
    return /^#\/components\/schemas\/\w+Id$/.test(ref) ? [{ field, schemaPointer: ref.slice(1) }] : [];
  });
}

/** One field of a link target's answer that echoes what its source sent or answered (the link's `x-echoes`). */
export interface LinkEcho {
  /** Whether the value is in the source operation's request body or in its answer. */
  from: 'request' | 'response';
  /** JSON pointer into that body. */
  field: string;
  /** JSON pointer into the target operation's answer. */
  target: string;
}

const echoSource = /^\$(request|response)\.body#(\/.*)$/;

/**
 * What the target of a link must answer as its source sent or answered: the link's `x-echoes`, a map from a runtime
 * expression (`$request.body#/initialSupply`) to a JSON pointer into the target's answer (`/tokenomics/totalSupply`).
 * The spec says it once, so the read-back checks name no field. Throws on an entry that is not such a pair.
 * @example linkEchoes(link).map((e) => `${e.from}${e.field} -> ${e.target}`) // ['request/name -> /name', …]
 */
export function linkEchoes(link: OperationLink, document: JsonObject = openapiDocument): LinkEcho[] {
  const echoes = getObject(getObject(document, link.pointer), 'x-echoes') ?? {};
  return Object.entries(echoes).map(([expression, target]) => {
    const match = echoSource.exec(expression);
    if (!match || typeof target !== 'string' || !target.startsWith('/'))
      throw new Error(
        `${link.pointer}/x-echoes: "${expression}" must map a $request.body#/… or $response.body#/… expression to a JSON pointer`,
      );
    return {
      from: match[1] === 'request' ? 'request' : 'response',
      field: toPointer(parsePointer(match[2] ?? '')),
      target,
    };
  });
}
