// What the console's live stream shows of one /v1 exchange beyond its journal line: the request's headers and body,
// the answer, what decided it and the spec's verdict. Built only while someone watches, never kept, never persisted.
import { checkResponse, type OperationId } from '../../../spec/index.ts';
import type { MockRequest, MockResponse } from '../mock-http.ts';
import { JOURNAL_BODY_LIMIT, journalText } from './journal.ts';

/** What answered in the operation's place, or `normal` when the operation's handler did on the fake's own state. */
type Decision = 'normal' | 'scenario' | 'override' | 'prefer' | 'provider-state';

/** Whether a provider state set up what answered (mocks/pact-export/provider-state.ts's marks). */
interface ProviderStatesSetUp {
  decided(trace: ExchangeTrace): boolean;
}

/** One finding of the spec's response checker, with where its rule lives in spec/openapi.yaml. */
interface VerdictFinding {
  rule: string;
  pointer: string;
  specPointer: string;
  message: string;
}

export interface ExchangeDetail {
  decidedBy: Decision;
  request: { headers: Record<string, string>; body: string | null };
  response: { status: number; headers: Record<string, string>; body: string; bodyTruncated: boolean };
  /** The spec's response checker on the answer; null when the request reached no operation. */
  verdict: { ok: boolean; violations: VerdictFinding[] } | null;
}

/**
 * The request headers shown, by name: anything else (Authorization, Cookie, X-Mock-Control-Token, any vendor header
 * that may carry a credential) is left out, and Authorization is only said to be there.
 */
const SHOWN_REQUEST_HEADERS = ['content-type', 'content-length', 'accept', 'prefer', 'x-mock-session', 'origin'];

/** The credential of the request's Authorization header and each of its parts, longest first (what is hidden). */
function secretsOf(request: MockRequest): string[] {
  const header = request.headers.authorization;
  if (header === undefined) return [];
  const token = header.replace(/^\s*\S+\s+/, '').trim();
  return [header.trim(), token, ...token.split('.')]
    .filter((part) => part.length >= 8)
    .sort((a, b) => b.length - a.length);
}

/** A JWT (the only bearer tokens the fake accepts): three base64url segments, the first a JSON object's `{"`. */
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g;

/**
 * `text` with anything shaped like a JWT hidden: what the stream shows of an entry answered before anyone watched,
 * whose Authorization header the journal did not keep.
 * @example hideTokens('{"task":"eyJhbGciOi….eyJzdWIi….sig"}') // '{"task":"<redacted>"}'
 */
export function hideTokens(text: string): string {
  return text.replace(JWT_SHAPE, '<redacted>');
}

function hide(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = result.replaceAll(secret, '<redacted>');
  return hideTokens(result);
}

function decisionOf(
  request: MockRequest,
  response: MockResponse,
  trace: ExchangeTrace,
  states: ProviderStatesSetUp | undefined,
): Decision {
  const scenario = trace.scenario;
  if (scenario && (scenario.errorStatus !== undefined || scenario.retryAfterSeconds !== undefined)) return 'scenario';
  if (states?.decided(trace)) return 'provider-state';
  if (trace.forced) return 'override';
  if (response.headers['preference-applied'] !== undefined) return 'prefer';
  if (scenario && scenario.latencyMs > 0) return 'scenario';
  return request.headers.prefer !== undefined && response.status >= 400 ? 'prefer' : 'normal';
}

/** What the dispatch learnt that the detail reads (a subset of DispatchTrace). */
export interface ExchangeTrace {
  operationId: OperationId | null;
  bodyText: string | null;
  forced?: boolean;
  params?: Readonly<Record<string, string>>;
  scenario?: { latencyMs: number; errorStatus?: number; retryAfterSeconds?: number };
}

/**
 * The detail of one answered /v1 request, with the caller's credential hidden wherever it recurs.
 * @example if (journal.watched) journal.add(record, exchangeDetail(request, response, trace));
 */
export function exchangeDetail(
  request: MockRequest,
  response: MockResponse,
  trace: ExchangeTrace,
  states?: ProviderStatesSetUp,
): ExchangeDetail {
  const secrets = secretsOf(request);
  const headers: Record<string, string> = {};
  if (request.headers.authorization !== undefined) headers.authorization = '(sent, not shown)';
  for (const name of SHOWN_REQUEST_HEADERS) {
    const value = request.headers[name];
    if (value !== undefined) headers[name] = hide(journalText(value, 256), secrets);
  }
  const responseHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) responseHeaders[name] = hide(value, secrets);
  const { operationId } = trace;
  const check =
    operationId === null
      ? null
      : checkResponse({
          operationId,
          status: response.status,
          contentType: response.headers['content-type'],
          body: response.body,
          headers: response.headers,
        });
  return {
    decidedBy: decisionOf(request, response, trace, states),
    request: { headers, body: trace.bodyText === null ? null : hide(journalText(trace.bodyText), secrets) },
    response: {
      status: response.status,
      headers: responseHeaders,
      body: hide(journalText(response.body), secrets),
      bodyTruncated: response.body.length > JOURNAL_BODY_LIMIT,
    },
    verdict: check && {
      ok: check.ok,
      violations: check.violations.map(({ rule, pointer, specPointer, message }) => ({
        rule,
        pointer,
        specPointer,
        message,
      })),
    },
  };
}
