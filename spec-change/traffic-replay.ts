// Replays recorded evidence through a version of the document's validators: the base version's examples
// (example-evidence.ts), a running fake's journal (journal-evidence.ts) and a contract run's --json report or a proxy's
// recording (report-evidence.ts). What the base version accepted and the new one rejects is a call (or an answer) the
// change would break.
import {
  checkResponse,
  matchOperation,
  operationsOf,
  readParameters,
  validateRequestBody,
  type BodyOperationId,
  type JsonObject,
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
  /** The request's headers, names in lower case, when the source recorded them (a report's or a recording's). */
  requestHeaders?: Record<string, string>;
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

/** Whether the evidence recorded the part of the request a parameter lives in, so its absence there means something. */
function recorded(location: string, evidence: Evidence): boolean {
  if (location === 'path') return true;
  if (location === 'query') return evidence.query !== undefined;
  return (location === 'header' || location === 'cookie') && evidence.requestHeaders !== undefined;
}

function requestReasons(document: JsonObject, evidence: Evidence): string[] | undefined {
  const match = matchOperation(document, evidence.method, evidence.path, evidence.templated);
  if (!match) return [`${evidence.method} ${evidence.path} is not an operation of this version`];
  const reasons: string[] = [];
  // The spec's one parameter reader, with this version's parameters: the path always, the query and the headers (the
  // cookie among them) when they were recorded (an example's template has no values to judge; the journal keeps
  // neither headers nor the query).
  if (!evidence.templated) {
    const { query, requestHeaders } = evidence;
    const input = { path: match.parameters, query, ...(requestHeaders ? { headers: requestHeaders } : {}) };
    const read = readParameters(match.operationId, input, document);
    if (!read.ok)
      for (const error of read.errors)
        if (recorded(error.location, evidence)) reasons.push(`${error.path} ${error.message}`);
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

/** Thrown when a journal or a report is not what it should be; the message says what was expected. */
export class EvidenceError extends Error {}
