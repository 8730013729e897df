// Reads a Pact file as pact-js and the Pact core write it (specification 2, 3 or 4) into one shape: interactions with
// their provider states, a request and a response each with text headers, the body as sent, and the matching rules.
// What is not a Pact file (not JSON, no interactions, an interaction without a request) is a PactFileError: one line.
import { isJsonObject, MAX_JSON_DEPTH, nestsDeeperThan, type JsonObject, type JsonValue } from '../spec/index.ts';
import { readMatchingRules, TooManyRules, type MatchingRule } from './matching-rules.ts';

/**
 * Levels a pact adds around a body (`interactions`, an interaction, its response, `body`, `content`, and a few for the
 * matching rules): a body nesting the kit's 64 levels is checked (and found too deep past them), deeper files refused.
 */
const PACT_ENVELOPE_DEPTH = 8;

/** A pact that cannot be read; the message is one line that names what is wrong and where. */
export class PactFileError extends Error {}

/** The Pact specification a file follows, as its metadata states or its shape shows. */
type PactVersion = 2 | 3 | 4;

/** One provider state: what the provider must be set up with before the interaction (`params` from Pact 3 on). */
export interface ProviderState {
  name: string;
  params?: JsonObject;
}

/** One side of an HTTP interaction, as the pact states it. */
interface PactMessage {
  /** Header names in lower case; several values joined with `, `. */
  headers: Record<string, string>;
  /** The body as text (JSON bodies serialised), undefined when the pact states none. */
  body: string | undefined;
  /** The body's content type where a Pact 4 body states it and the headers do not. */
  bodyContentType: string | undefined;
  matchingRules: MatchingRule[];
}

/** A request of an interaction. */
export interface PactRequest extends PactMessage {
  method: string;
  /** The path as written, without a query. */
  path: string;
  /** The query's parameters and their values. */
  query: Record<string, string[]>;
}

/** A response of an interaction. */
export interface PactResponse extends PactMessage {
  status: number;
}

/** One interaction: its place in the file, what a person reads of it, and the exchange. */
export interface PactInteraction {
  /** Zero-based position in the file's `interactions`. */
  index: number;
  description: string;
  providerStates: ProviderState[];
  /** The Pact 4 interaction type (`Synchronous/HTTP`); HTTP for the older specifications. */
  type: string;
  /** Undefined for an interaction that is not HTTP (a Pact 4 message): the OpenAPI document has nothing to say of it. */
  request: PactRequest | undefined;
  response: PactResponse | undefined;
}

/** A whole pact. */
export interface Pact {
  version: PactVersion;
  /** The version string the metadata states, when it states one. */
  specification: string | undefined;
  consumer: string;
  provider: string;
  interactions: PactInteraction[];
}

const httpType = 'Synchronous/HTTP';

function text(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The specification version of the metadata (`pactSpecification`, or the older spellings), when stated. */
function statedVersion(metadata: JsonValue | undefined): string | undefined {
  if (!isJsonObject(metadata)) return undefined;
  for (const key of ['pactSpecification', 'pact-specification', 'pactSpecificationVersion']) {
    const value = metadata[key];
    if (typeof value === 'string') return value;
    if (isJsonObject(value) && typeof value.version === 'string') return value.version;
  }
  return undefined;
}

function versionOf(stated: string | undefined, interactions: readonly JsonValue[]): PactVersion {
  if (stated !== undefined) {
    const major = Number(/^v?(\d+)/i.exec(stated.trim())?.[1]);
    if (major === 4 || major === 3 || major === 2) return major;
    if (major === 1) return 2;
    throw new PactFileError(`its metadata states Pact specification "${stated.slice(0, 40)}", not 1 to 4`);
  }
  // No metadata: the shape tells. A Pact 4 interaction has a type; Pact 3 states providerStates as a list.
  if (interactions.some((one) => isJsonObject(one) && typeof one.type === 'string')) return 4;
  if (interactions.some((one) => isJsonObject(one) && Array.isArray(one.providerStates))) return 3;
  return 2;
}

function nameOf(party: JsonValue | undefined, role: string): string {
  if (isJsonObject(party) && typeof party.name === 'string' && party.name !== '') return party.name;
  throw new PactFileError(`it names no ${role} ({"${role}": {"name": …}})`);
}

function headersOf(raw: JsonValue | undefined, where: string): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (!isJsonObject(raw)) throw new PactFileError(`${where}.headers is not an object`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const values = Array.isArray(value) ? value : [value];
    if (!values.every((one) => typeof one === 'string'))
      throw new PactFileError(`${where}.headers.${name.slice(0, 60)} is not text`);
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? values.join(', ') : `${headers[key]}, ${values.join(', ')}`;
  }
  return headers;
}

/** A Pact 4 body: `{ content, contentType, encoded }`; `encoded` is false, "base64" or "json". */
function v4Body(
  raw: JsonValue | undefined,
  where: string,
): { body: string | undefined; contentType: string | undefined } {
  if (raw === undefined || raw === null) return { body: undefined, contentType: undefined };
  if (!isJsonObject(raw)) throw new PactFileError(`${where}.body is not a Pact 4 body ({"content": …})`);
  const contentType = text(raw.contentType);
  const content = raw.content;
  if (content === undefined) return { body: undefined, contentType };
  const encoded = raw.encoded;
  if (encoded === 'base64') {
    if (typeof content !== 'string') throw new PactFileError(`${where}.body.content is not base64 text`);
    return { body: Buffer.from(content, 'base64').toString('utf8'), contentType };
  }
  if (typeof content === 'string' && encoded !== 'json' && encoded !== 'JSON') return { body: content, contentType };
  return { body: JSON.stringify(content), contentType };
}

/** A body of Pact 2 or 3: the JSON value itself, or text as it is. */
function plainBody(raw: JsonValue | undefined, headers: Record<string, string>): string | undefined {
  if (raw === undefined) return undefined;
  const type = headers['content-type'] ?? '';
  if (typeof raw === 'string' && !/json/i.test(type)) return raw;
  return JSON.stringify(raw);
}

function queryOf(raw: JsonValue | undefined, where: string): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  if (raw === undefined || raw === null || raw === '') return query;
  if (typeof raw === 'string') {
    for (const [name, value] of new URLSearchParams(raw)) query[name] = [...(query[name] ?? []), value];
    return query;
  }
  if (!isJsonObject(raw)) throw new PactFileError(`${where}.query is neither text nor an object`);
  for (const [name, value] of Object.entries(raw)) {
    const values = Array.isArray(value) ? value : [value];
    query[name] = values.map((one) => (typeof one === 'string' ? one : JSON.stringify(one)));
  }
  return query;
}

function messageOf(raw: JsonObject, version: PactVersion, where: string): PactMessage {
  const headers = headersOf(raw.headers, where);
  const { body, contentType } =
    version === 4 ? v4Body(raw.body, where) : { body: plainBody(raw.body, headers), contentType: undefined };
  let matchingRules: MatchingRule[];
  try {
    matchingRules = readMatchingRules(raw.matchingRules, version);
  } catch (error) {
    if (error instanceof TooManyRules) throw new PactFileError(`${where}.matchingRules ${error.message}`);
    throw error;
  }
  return { headers, body, bodyContentType: contentType, matchingRules };
}

function statesOf(raw: JsonObject): ProviderState[] {
  if (typeof raw.providerState === 'string' && raw.providerState !== '') return [{ name: raw.providerState }];
  if (!Array.isArray(raw.providerStates)) return [];
  return raw.providerStates.flatMap((state): ProviderState[] => {
    if (typeof state === 'string') return [{ name: state }];
    if (!isJsonObject(state) || typeof state.name !== 'string') return [];
    return [isJsonObject(state.params) ? { name: state.name, params: state.params } : { name: state.name }];
  });
}

function interactionOf(raw: JsonValue, index: number, version: PactVersion): PactInteraction {
  const where = `interactions[${index}]`;
  if (!isJsonObject(raw)) throw new PactFileError(`${where} is not an object`);
  const description = text(raw.description) ?? `interaction ${index + 1}`;
  const type = version === 4 ? (text(raw.type) ?? httpType) : httpType;
  const base = { index, description, providerStates: statesOf(raw), type };
  if (type !== httpType) return { ...base, request: undefined, response: undefined };
  const request = raw.request;
  const response = raw.response;
  if (!isJsonObject(request)) throw new PactFileError(`${where} has no request object`);
  if (!isJsonObject(response)) throw new PactFileError(`${where} has no response object`);
  if (typeof request.method !== 'string' || request.method === '')
    throw new PactFileError(`${where}.request has no method`);
  if (typeof request.path !== 'string' || !request.path.startsWith('/'))
    throw new PactFileError(`${where}.request has no path starting with /`);
  const status = response.status ?? 200;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
    throw new PactFileError(`${where}.response.status is not an HTTP status`);
  const [path = '', inlineQuery] = request.path.split('?', 2);
  const query = queryOf(request.query ?? inlineQuery, `${where}.request`);
  return {
    ...base,
    request: { ...messageOf(request, version, `${where}.request`), method: request.method.toUpperCase(), path, query },
    response: { ...messageOf(response, version, `${where}.response`), status },
  };
}

/**
 * Reads the text of a Pact file (specification 2, 3 or 4); throws PactFileError, one line, when it is not one.
 * @example parsePact(readFileSync('pacts/web-agent-registry.json', 'utf8')).interactions.length
 */
export function parsePact(source: string): Pact {
  const depth = MAX_JSON_DEPTH + PACT_ENVELOPE_DEPTH;
  // Refused before it is parsed: everything that reads a pact after (JSON.stringify of a body, the matchers) recurses.
  if (nestsDeeperThan(source, depth))
    throw new PactFileError(`it nests arrays and objects deeper than ${depth} levels`);
  let document: unknown;
  try {
    document = JSON.parse(source);
  } catch (error) {
    throw new PactFileError(
      `it is not JSON (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`,
    );
  }
  if (!isJsonObject(document)) throw new PactFileError('it is not a JSON object');
  const interactions = document.interactions;
  if (!Array.isArray(interactions))
    throw new PactFileError(
      Array.isArray(document.messages)
        ? 'it is a message pact (messages, no interactions): no HTTP to check against the OpenAPI document'
        : 'it has no "interactions" list',
    );
  const specification = statedVersion(document.metadata);
  const version = versionOf(specification, interactions);
  return {
    version,
    specification,
    consumer: nameOf(document.consumer, 'consumer'),
    provider: nameOf(document.provider, 'provider'),
    interactions: interactions.map((raw, index) => interactionOf(raw, index, version)),
  };
}
