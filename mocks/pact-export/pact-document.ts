// A Pact file (specification 4.0, or 3.0.0 on request) of what the app made the fake answer: one interaction per kept
// exchange (mocks/pact-export/pact-log.ts), each with its provider state, a description a person reads, and matchers from the
// spec. Deterministic: the same exchanges give the same bytes (sorted, no time of writing, timestamps pinned).
import {
  escapePointerToken,
  getAtPointer,
  getOperation,
  isJsonObject,
  openapiDocument,
  operations,
  type JsonObject,
  type JsonValue,
  type OperationId,
} from '../../spec/index.ts';
import type { ProviderState } from './provider-state.ts';
import {
  bodyRules,
  headerMatcher,
  mediaTypeRegex,
  stableExample,
  stableText,
  type PactRules,
} from './pact-matchers.ts';

/** One exchange a pact interaction is written from. Never holds the Authorization header, cookies or control headers. */
export interface PactExchange {
  operationId: OperationId;
  method: string;
  /** Percent-encoded path, as the app sent it. */
  path: string;
  /** The query string without `?`. */
  query: string;
  /**
   * The request headers a pact keeps (lower-case names): `content-type`, `prefer` and the declared header and cookie
   * parameters (pact-request-headers.ts); never the Authorization header, control headers or undeclared cookies.
   */
  headers: Record<string, string>;
  /** Whether the request carried an Authorization header (written as a matcher, never as the app's token). */
  authorized: boolean;
  /** The request's JSON body; undefined when it had none. */
  body: JsonValue | undefined;
  status: number;
  /** `content-type` and the headers the spec requires of the status (lower-case names). */
  responseHeaders: Record<string, string>;
  responseBody: JsonValue | undefined;
  state: ProviderState | undefined;
}

/** The Pact specification versions a pact is written in. */
export type PactSpecification = 3 | 4;

export interface PactOptions {
  consumer: string;
  provider: string;
  /** 4 (the default: Pact V4) or 3. */
  pactSpecification?: PactSpecification;
}

/**
 * What the Authorization header shows: a matcher with a stand-in, never the app's token. The stand-in is a JWT in form
 * (three base64url segments), as the security scheme's `bearerFormat: JWT` asks, and plainly no token.
 */
const AUTHORIZATION_EXAMPLE = 'Bearer stand-in.for-your.token';
const AUTHORIZATION_REGEX = '^Bearer [A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*$';

/** A header name as HTTP documents spell it: `content-type` → `Content-Type`, `www-authenticate` → `WWW-Authenticate`. */
function headerName(name: string): string {
  return name === 'www-authenticate'
    ? 'WWW-Authenticate'
    : name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

const operationOrder = new Map([...operations.keys()].map((operationId, index) => [operationId, index]));

/**
 * Where an interaction goes in a pact: operation in the spec's order, method, status, provider state (a merge of two
 * pact files orders by the same key, pact-merge.ts).
 * @example pactSortKey(exchange.operationId, 'GET', 200, '') // '0001 GET 200 '
 */
export function pactSortKey(operationId: OperationId, method: string, status: number, stateName: string): string {
  const order = String(operationOrder.get(operationId) ?? 0).padStart(4, '0');
  return `${order} ${method} ${status} ${stateName}`;
}

function sortKey(exchange: PactExchange): string {
  return pactSortKey(exchange.operationId, exchange.method, exchange.status, exchange.state?.name ?? '');
}

/** "Retrieve an agent (GET /v1/agents/{agentId}): 200, given an agent exists with status paused". */
function description(exchange: PactExchange): string {
  const operation = getOperation(exchange.operationId);
  const node = getAtPointer(openapiDocument, operation.pointer);
  const summary = isJsonObject(node) && typeof node.summary === 'string' ? node.summary : exchange.operationId;
  const given = exchange.state ? `, given ${exchange.state.name}` : '';
  return `${summary} (${exchange.method} ${operation.path}): ${exchange.status}${given}`;
}

/** The query string as Pact writes it: each name with its values, in the order sent. */
function queryOf(query: string): Record<string, string[]> | undefined {
  if (query === '') return undefined;
  const result: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) {
    const values = result[name] ?? [];
    values.push(value);
    result[name] = values;
  }
  return result;
}

/** Whether a response field echoes the request (a path parameter, a body field) or the provider state. */
function echoes(exchange: PactExchange): (key: string, value: JsonValue) => boolean {
  const sources: Record<string, unknown>[] = [];
  const route = getOperation(exchange.operationId);
  const segments = route.path.split('/');
  const sent = exchange.path.split('/');
  const params: Record<string, string> = {};
  segments.forEach((segment, index) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    if (name !== undefined) params[name] = safeDecode(sent[index] ?? '');
  });
  sources.push(params);
  if (isJsonObject(exchange.body)) sources.push(exchange.body);
  if (exchange.state) sources.push(exchange.state.params);
  return (key, value) =>
    sources.some((source) => Object.hasOwn(source, key) && JSON.stringify(source[key]) === JSON.stringify(value));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** One side's headers and their rules, as V3 (a string each) or V4 (a list each) writes them. */
function headersOf(
  headers: Record<string, string>,
  version: PactSpecification,
): Record<string, string | string[]> | undefined {
  const entries = Object.entries(headers);
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([name, value]) => [name, version === 4 ? [value] : value]));
}

function bodyOf(body: JsonValue | undefined, contentType: string | undefined, version: PactSpecification) {
  if (body === undefined) return {};
  if (version === 3) return { body };
  return { body: { content: body, contentType: contentType ?? 'application/json', encoded: false } };
}

function rulesOf(rules: { body?: PactRules; header?: PactRules }): { matchingRules?: JsonObject } {
  const kept = Object.entries(rules).filter(([, value]) => value !== undefined && Object.keys(value).length > 0);
  return kept.length === 0 ? {} : { matchingRules: Object.fromEntries(kept) as JsonObject };
}

function requestOf(exchange: PactExchange, version: PactSpecification): JsonObject {
  const headers: Record<string, string> = {};
  const header: PactRules = {};
  if (exchange.authorized) {
    headers.Authorization = AUTHORIZATION_EXAMPLE;
    header.Authorization = { combine: 'AND', matchers: [{ match: 'regex', regex: AUTHORIZATION_REGEX }] };
  }
  for (const [name, value] of Object.entries(exchange.headers)) headers[headerName(name)] = value;
  const query = queryOf(exchange.query);
  return {
    method: exchange.method,
    path: exchange.path,
    ...(query && { query }),
    ...(headersOf(headers, version) && { headers: headersOf(headers, version) }),
    ...bodyOf(exchange.body, exchange.headers['content-type'], version),
    ...rulesOf({ header }),
  } as JsonObject;
}

function responseOf(exchange: PactExchange, version: PactSpecification): JsonObject {
  const documented = getOperation(exchange.operationId).responses.get(exchange.status);
  const contentType = exchange.responseHeaders['content-type'];
  const mediaType = contentType?.split(';')[0]?.trim();
  const schemaPointer =
    documented && mediaType && documented.mediaTypes.includes(mediaType)
      ? `${documented.pointer}/content/${escapePointerToken(mediaType)}/schema`
      : undefined;
  const headers: Record<string, string> = {};
  const header: PactRules = {};
  for (const [name, value] of Object.entries(exchange.responseHeaders)) {
    const spelled = headerName(name);
    headers[spelled] = value;
    if (name === 'content-type' && mediaType !== undefined)
      header[spelled] = { combine: 'AND', matchers: [{ match: 'regex', regex: mediaTypeRegex(mediaType) }] };
    const required = documented?.requiredHeaders.find((candidate) => candidate.name.toLowerCase() === name);
    if (required) {
      const matcher = headerMatcher(getAtPointer(openapiDocument, `${required.pointer}/schema`));
      header[required.name] = { combine: 'AND', matchers: [matcher] };
      // A challenge naming the token's expiry: the time is pinned, the type matcher takes any value in its place.
      if (matcher.match === 'type') headers[spelled] = stableText(value);
    }
  }
  const body = exchange.responseBody;
  const rules = body === undefined ? {} : bodyRules(body, schemaPointer, echoes(exchange));
  return {
    status: exchange.status,
    ...(headersOf(headers, version) && { headers: headersOf(headers, version) }),
    ...bodyOf(body === undefined ? undefined : stableExample(body, rules), contentType, version),
    ...rulesOf({ body: rules, header }),
  } as JsonObject;
}

function interactionOf(exchange: PactExchange, version: PactSpecification): JsonObject {
  return {
    ...(version === 4 && { type: 'Synchronous/HTTP' }),
    description: description(exchange),
    ...(exchange.state && { providerStates: [{ name: exchange.state.name, params: exchange.state.params }] }),
    request: requestOf(exchange, version),
    response: responseOf(exchange, version),
  } as JsonObject;
}

/**
 * The pact of `exchanges`: Pact V4 (or V3), interactions sorted by operation (the spec's order), method, status and
 * provider state.
 * @example const pact = buildPact(core.pact.exchanges(), { consumer: 'web-app', provider: 'agent-registry' });
 */
export function buildPact(exchanges: readonly PactExchange[], options: PactOptions): JsonObject {
  const version = options.pactSpecification ?? 4;
  const sorted = [...exchanges].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  return {
    consumer: { name: options.consumer },
    provider: { name: options.provider },
    interactions: sorted.map((exchange) => interactionOf(exchange, version)),
    metadata: {
      pactSpecification: { version: version === 4 ? '4.0' : '3.0.0' },
      'agent-registry-kit': { openapi: 'spec/openapi.yaml' },
    },
  };
}

/**
 * One interaction of a pact as `pactText` writes it inside the pact (two-space JSON, indented to its place in the
 * list), and where it sorts: what the pact log keeps of an exchange, so that a pact is assembled from texts by a join.
 * @example interactionText(exchange, 4).text.startsWith('    {\n      "type": "Synchronous/HTTP"') // true
 */
export function interactionText(exchange: PactExchange, version: PactSpecification): { key: string; text: string } {
  // Inside a JSON string a line break is escaped: every one of the text is between two of its lines. The indent comes
  // from the same replace (then a slice, a view): a string prefixed by concatenation would be copied again when sent.
  const text = `\n${JSON.stringify(interactionOf(exchange, version), null, 2)}`.replaceAll('\n', '\n    ').slice(1);
  return { key: sortKey(exchange), text };
}

/**
 * The text of a pact in pieces, from its interactions' texts (`interactionText`) in the order they sort: joined, byte
 * for byte what `pactText(buildPact(exchanges, options))` writes for the same exchanges.
 * @example pactParts(sorted.map((exchange) => interactionText(exchange, 4).text), { consumer: 'web', provider: 'api' }).join('')
 */
export function pactParts(interactions: readonly string[], options: PactOptions): string[] {
  const envelope = pactText(buildPact([], options));
  if (interactions.length === 0) return [envelope];
  // Inside a JSON string a quote is escaped, so `"interactions": []` can only be the key itself.
  const at = envelope.indexOf('"interactions": []') + '"interactions": ['.length;
  const parts = [`${envelope.slice(0, at)}\n`];
  interactions.forEach((text, index) => {
    if (index > 0) parts.push(',\n');
    parts.push(text);
  });
  parts.push(`\n  ${envelope.slice(at)}`);
  return parts;
}

/**
 * A pact as a file holds it: two-space JSON and a final newline, the same bytes for the same document.
 * @example await writeFile('pacts/web-app-agent-registry.json', pactText(pact));
 */
export function pactText(pact: JsonValue): string {
  return `${JSON.stringify(pact, null, 2)}\n`;
}
