// A contract run's --json report, or a proxy's recording (proxy --record), as evidence: each exchange's request and
// response as recorded, tokens already redacted, bodies cut by the recorder (`... (N characters)`) marked incomplete.
// The streaming reader (evidence-stream.ts) reads the same exchanges one at a time.
import { isJsonObject, matchOperation, type JsonObject } from '../spec/index.ts';
import { EvidenceError, type Evidence } from './traffic-replay.ts';

/** What a file that is not a report is told; shared with the streaming reader. */
export const NOT_A_REPORT =
  'the file is not a contract report or a recording (expected the --json output of the contract command, with "checks", or a file written by proxy --record)';

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
  // Header names in lower case, as the parameter reader reads them; a token's value is already redacted.
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(requestHeaders))
    if (typeof value === 'string') sent[name.toLowerCase()] = value;
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
    ...(isJsonObject(headers) ? { requestHeaders: sent } : {}),
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
