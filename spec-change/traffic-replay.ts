// Replays recorded evidence through a version of the document's validators: the base version's examples, a running
// fake's journal and a contract run's --json report. What the base version accepted and the new one rejects is a call
// (or an answer) the change would break.
import {
  checkResponse,
  escapePointerToken,
  getAtPointer,
  isJsonObject,
  matchOperation,
  operationsOf,
  readParameters,
  validateRequestBody,
  walkOperations,
  type BodyOperationId,
  type JsonObject,
  type JsonValue,
} from '../spec/index.ts';

/** One recorded exchange, from wherever it came; parts that were not recorded are undefined. */
export interface Evidence {
  source: 'example' | 'journal' | 'report';
  /** Where it is in its source: `/components/examples/AgentTrading`, `journal #12`, `auth/<operationId>/missing #0`. */
  where: string;
  method: string;
  /** The request path, or the path template for an example (then path parameters are not checked). */
  path: string;
  templated: boolean;
  /** The query string without `?`, when the source recorded it (a report's or a recording's URL). */
  query?: string;
  request: { contentType: string | undefined; body: string | undefined; complete: boolean } | undefined;
  response:
    | {
        status: number;
        contentType: string | undefined;
        /** undefined when only the status was recorded (the journal). */
        body: string | undefined;
        complete: boolean;
        headers: Record<string, string> | undefined;
      }
    | undefined;
}

/** A recorded request or response the new version rejects. */
interface ReplayFinding {
  source: Evidence['source'];
  where: string;
  part: 'request' | 'response';
  method: string;
  path: string;
  status: number | undefined;
  /** `newly-rejected`: the base version accepted it (a break); `already-rejected`: the base version did not either. */
  verdict: 'newly-rejected' | 'already-rejected';
  /** Why the new version rejects it, each with its JSON Pointer. */
  reasons: string[];
}

export interface ReplayResult {
  counts: Record<Evidence['source'], number>;
  requests: number;
  responses: number;
  /** Parts not replayed because their body was cut when recorded. */
  incomplete: number;
  /** Parts the base version accepted and the new one rejects: the breaks. */
  newlyRejected: number;
  /** Parts both versions reject. */
  alreadyRejected: number;
  /** Findings counted but not listed, past MAX_KEPT_FINDINGS. */
  findingsOmitted: number;
  /** The findings, the first MAX_KEPT_FINDINGS of them. */
  findings: ReplayFinding[];
}

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function requestReasons(document: JsonObject, evidence: Evidence): string[] | undefined {
  const match = matchOperation(document, evidence.method, evidence.path, evidence.templated);
  if (!match) return [`${evidence.method} ${evidence.path} is not an operation of this version`];
  const reasons: string[] = [];
  // The spec's one parameter reader, with this version's parameters: the path always, the query when it was recorded
  // (an example's template has no values to judge; the journal keeps no headers).
  if (!evidence.templated) {
    const read = readParameters(match.operationId, { path: match.parameters, query: evidence.query }, document);
    if (!read.ok)
      for (const error of read.errors)
        if (error.location === 'path' || (error.location === 'query' && evidence.query !== undefined))
          reasons.push(`${error.path} ${error.message}`);
  }
  const operation = operationsOf(document).get(match.operationId);
  const request = evidence.request;
  if (!operation?.requestMediaType || !request || request.body === undefined) return reasons;
  if (!request.complete) return undefined;
  if (request.contentType !== undefined && mediaTypeOf(request.contentType) !== operation.requestMediaType)
    reasons.push(`Content-Type ${request.contentType} is not ${operation.requestMediaType}`);
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    return [...reasons, 'the body is not JSON'];
  }
  // The operationId is this version's; the type only names the spec's own, hence the cast.
  const result = validateRequestBody(match.operationId as BodyOperationId, body, { document });
  if (!result.ok) for (const error of result.errors) reasons.push(`${error.path || '(the body)'} ${error.message}`);
  return reasons;
}

function responseReasons(document: JsonObject, evidence: Evidence): string[] | undefined {
  const response = evidence.response;
  if (!response) return [];
  const match = matchOperation(document, evidence.method, evidence.path, evidence.templated);
  if (!match) return [`${evidence.method} ${evidence.path} is not an operation of this version`];
  if (response.body === undefined || !response.complete) {
    const documented = operationsOf(document).get(match.operationId)?.responses.has(response.status);
    return documented
      ? response.body === undefined
        ? []
        : undefined
      : [`status ${response.status} is not documented`];
  }
  const check = checkResponse(
    {
      operationId: match.operationId,
      status: response.status,
      contentType: response.contentType,
      body: response.body,
      ...(response.headers ? { headers: response.headers } : {}),
    },
    document,
  );
  // The checker's message already starts with the pointer it is about.
  return check.violations.map((v) => `${v.message} (${v.specPointer})`);
}

/** Findings kept in full; past this only their counts grow, so a replay of any size holds bounded memory. */
const MAX_KEPT_FINDINGS = 10_000;

/**
 * Replays evidence pushed to it one piece at a time, so a source of any size streams through. A request is replayed
 * only when the server accepted it (a 2xx, or an example): a request that was refused anyway breaks nothing.
 * @example const replayer = new Replayer(base, head); for (const e of examplesOf(base)) replayer.add(e); replayer.result();
 */
export class Replayer {
  readonly #base: JsonObject;
  readonly #head: JsonObject;
  readonly #maxKept: number;
  readonly #result: ReplayResult = {
    counts: { example: 0, journal: 0, report: 0 },
    requests: 0,
    responses: 0,
    incomplete: 0,
    newlyRejected: 0,
    alreadyRejected: 0,
    findingsOmitted: 0,
    findings: [],
  };

  constructor(base: JsonObject, head: JsonObject, maxKept = MAX_KEPT_FINDINGS) {
    this.#base = base;
    this.#head = head;
    this.#maxKept = maxKept;
  }

  add(item: Evidence): void {
    const result = this.#result;
    result.counts[item.source] += 1;
    const accepted = item.response === undefined || (item.response.status >= 200 && item.response.status < 300);
    const parts: Array<['request' | 'response', (document: JsonObject, e: Evidence) => string[] | undefined]> = [];
    if (item.request && accepted) parts.push(['request', requestReasons]);
    if (item.response) parts.push(['response', responseReasons]);
    for (const [part, reasonsOf] of parts) {
      const after = reasonsOf(this.#head, item);
      if (after === undefined) {
        result.incomplete += 1;
        continue;
      }
      if (part === 'request') result.requests += 1;
      else result.responses += 1;
      if (after.length === 0) continue;
      const before = reasonsOf(this.#base, item) ?? [];
      const verdict = before.length === 0 ? 'newly-rejected' : 'already-rejected';
      if (verdict === 'newly-rejected') result.newlyRejected += 1;
      else result.alreadyRejected += 1;
      if (result.findings.length >= this.#maxKept) {
        result.findingsOmitted += 1;
        continue;
      }
      const status = item.response?.status;
      result.findings.push({ ...evidenceAt(item), part, status, verdict, reasons: after });
    }
  }

  result(): ReplayResult {
    return this.#result;
  }
}

function evidenceAt(item: Evidence): Pick<ReplayFinding, 'source' | 'where' | 'method' | 'path'> {
  return { source: item.source, where: item.where, method: item.method, path: item.path };
}

/**
 * Replays every piece of evidence through both versions and lists what the new one rejects.
 * @example replay(base, head, [...examplesOf(base), ...journalEvidence(journal)]).findings
 */
export function replay(base: JsonObject, head: JsonObject, evidence: Iterable<Evidence>): ReplayResult {
  const replayer = new Replayer(base, head);
  for (const item of evidence) replayer.add(item);
  return replayer.result();
}

function exampleValues(
  document: JsonObject,
  media: JsonObject,
  pointer: string,
): Array<{ value: JsonValue; where: string }> {
  const found: Array<{ value: JsonValue; where: string }> = [];
  if (media.example !== undefined) found.push({ value: media.example, where: `${pointer}/example` });
  if (isJsonObject(media.examples))
    for (const [name, raw] of Object.entries(media.examples)) {
      let where = `${pointer}/examples/${escapePointerToken(name)}`;
      let example: JsonValue | undefined = raw;
      if (isJsonObject(example) && typeof example.$ref === 'string') {
        where = example.$ref.replace(/^#/, '');
        example = getAtPointer(document, where);
      }
      if (isJsonObject(example) && example.value !== undefined) found.push({ value: example.value, where });
    }
  return found;
}

function resolved(document: JsonObject, node: JsonValue | undefined): JsonObject | undefined {
  if (isJsonObject(node) && typeof node.$ref === 'string')
    return resolved(document, getAtPointer(document, node.$ref.replace(/^#/, '')));
  return isJsonObject(node) ? node : undefined;
}

/**
 * Every request and response example of a version, as evidence.
 * @example examplesOf(baseDocument).filter((e) => e.response !== undefined).length
 */
export function examplesOf(document: JsonObject): Evidence[] {
  const evidence: Evidence[] = [];
  for (const { operation, pointer, method, path, responses } of walkOperations(document)) {
    const body = resolved(document, operation.requestBody);
    const content = body && isJsonObject(body.content) ? body.content : {};
    for (const [mediaType, media] of Object.entries(content)) {
      if (!isJsonObject(media)) continue;
      for (const { value, where } of exampleValues(
        document,
        media,
        `${pointer}/requestBody/content/${escapePointerToken(mediaType)}`,
      ))
        evidence.push({
          source: 'example',
          where,
          method,
          path,
          templated: true,
          request: { contentType: mediaType, body: JSON.stringify(value), complete: true },
          response: undefined,
        });
    }
    for (const { status, node: response } of responses) {
      const responseContent = isJsonObject(response.content) ? response.content : {};
      for (const [mediaType, media] of Object.entries(responseContent)) {
        if (!isJsonObject(media)) continue;
        for (const { value, where } of exampleValues(
          document,
          media,
          `${pointer}/responses/${status}/content/${escapePointerToken(mediaType)}`,
        ))
          evidence.push({
            source: 'example',
            where,
            method,
            path,
            templated: true,
            request: undefined,
            // Headers are not part of an example, so only status, media type and body are replayed.
            response: {
              status: Number(status),
              contentType: mediaType,
              body: JSON.stringify(value),
              complete: true,
              headers: undefined,
            },
          });
      }
    }
  }
  return evidence;
}

/** Thrown when a journal or a report is not what it should be; the message says what was expected. */
export class EvidenceError extends Error {}

/** What a journal that is not one is told; shared with the streaming reader. */
export const NOT_A_JOURNAL =
  'the answer is not a journal (expected {"capacity", "entries": [...]} from GET /__mock/journal)';
/** What a file that is not a report is told; shared with the streaming reader. */
export const NOT_A_REPORT =
  'the file is not a contract report or a recording (expected the --json output of the contract command, with "checks", or a file written by proxy --record)';

/**
 * One journal entry as evidence, or undefined when it is not a call of the base version's operations.
 * @example journalEntryEvidence({ method: 'GET', path: '/v1/agents/agt_1', status: 200 }, 0, base)
 */
export function journalEntryEvidence(entry: unknown, index: number, base: JsonObject): Evidence | undefined {
  if (
    !isJsonObject(entry) ||
    typeof entry.method !== 'string' ||
    typeof entry.path !== 'string' ||
    typeof entry.status !== 'number'
  )
    return undefined;
  if (!matchOperation(base, entry.method, entry.path, false)) return undefined;
  const body = typeof entry.body === 'string' ? entry.body : undefined;
  return {
    source: 'journal',
    where: `#${index}${typeof entry.at === 'string' ? ` at ${entry.at}` : ''}`,
    method: entry.method,
    path: entry.path,
    templated: false,
    // The journal keeps no request headers; a body the fake accepted was JSON.
    request: { contentType: undefined, body, complete: entry.bodyTruncated !== true },
    response: { status: entry.status, contentType: undefined, body: undefined, complete: false, headers: undefined },
  };
}

/**
 * The fake's journal (`GET /__mock/journal`) as evidence: each request, its body (unless cut) and the status answered.
 * Entries for paths outside the base version's operations are left out: they are not calls of this API.
 * @example journalEvidence(await (await fetch(`${url}/__mock/journal`)).json(), base)
 */
export function journalEvidence(journal: unknown, base: JsonObject): Evidence[] {
  if (!isJsonObject(journal) || !Array.isArray(journal.entries)) throw new EvidenceError(NOT_A_JOURNAL);
  const evidence: Evidence[] = [];
  journal.entries.forEach((entry, index) => {
    const item = journalEntryEvidence(entry, index, base);
    if (item) evidence.push(item);
  });
  return evidence;
}

const truncated = /\.\.\. \(\d+ characters\)$/;

/**
 * The path prefix a report's or recording's `baseUrl` puts before every operation's path (`''` for none).
 * @example reportPrefix('http://127.0.0.1:4010/api/') // '/api'
 */
export function reportPrefix(baseUrl: unknown): string {
  return typeof baseUrl === 'string' ? safePathname(baseUrl).replace(/\/+$/, '') : '';
}

/**
 * One exchange of a report or a recording as evidence, or undefined when it is not a call of the base version.
 * @example exchangeEvidence(exchange, 'recording #0', '', base)
 */
export function exchangeEvidence(
  exchange: unknown,
  where: string,
  prefix: string,
  base: JsonObject,
): Evidence | undefined {
  if (!isJsonObject(exchange) || !isJsonObject(exchange.request)) return undefined;
  const { method, url, headers, body } = exchange.request;
  if (typeof method !== 'string' || typeof url !== 'string') return undefined;
  let path = safePathname(url);
  if (prefix && path.startsWith(prefix)) path = path.slice(prefix.length);
  if (!matchOperation(base, method, path, false)) return undefined;
  const requestHeaders = isJsonObject(headers) ? headers : {};
  const response = isJsonObject(exchange.response) ? exchange.response : undefined;
  const responseHeaders: Record<string, string> = {};
  if (response && isJsonObject(response.headers))
    for (const [name, value] of Object.entries(response.headers))
      if (typeof value === 'string') responseHeaders[name] = value;
  return {
    source: 'report',
    where,
    method,
    path,
    templated: false,
    query: safeSearch(url),
    request: {
      contentType: typeof requestHeaders['content-type'] === 'string' ? requestHeaders['content-type'] : undefined,
      body: typeof body === 'string' ? body : undefined,
      complete: typeof body !== 'string' || !truncated.test(body),
    },
    response:
      response && typeof response.status === 'number'
        ? {
            status: response.status,
            contentType: responseHeaders['content-type'],
            body: typeof response.body === 'string' ? response.body : '',
            complete: typeof response.body !== 'string' || !truncated.test(response.body),
            headers: responseHeaders,
          }
        : undefined,
  };
}

/**
 * The exchanges of a contract run's --json report, or of a proxy's recording, as evidence (tokens are already redacted).
 * @example reportEvidence(JSON.parse(readFileSync('contract.json', 'utf8')), base)
 */
export function reportEvidence(report: unknown, base: JsonObject): Evidence[] {
  // A proxy's recording (proxy --record) holds exchanges of the same shape, as one list: replayed as one "check".
  const checks =
    isJsonObject(report) && report.format === 'agent-registry-kit-recording' && Array.isArray(report.exchanges)
      ? [{ id: 'recording', exchanges: report.exchanges }]
      : isJsonObject(report) && Array.isArray(report.checks)
        ? report.checks
        : undefined;
  if (!isJsonObject(report) || checks === undefined) throw new EvidenceError(NOT_A_REPORT);
  const prefix = reportPrefix(report.baseUrl);
  const evidence: Evidence[] = [];
  for (const check of checks) {
    if (!isJsonObject(check) || !Array.isArray(check.exchanges)) continue;
    const id = typeof check.id === 'string' ? check.id : 'check';
    check.exchanges.forEach((exchange, index) => {
      const item = exchangeEvidence(exchange, `${id} #${index}`, prefix, base);
      if (item) evidence.push(item);
    });
  }
  return evidence;
}

function safeSearch(url: string): string {
  try {
    return new URL(url).search.slice(1);
  } catch {
    return url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  }
}

function safePathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
