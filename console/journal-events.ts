// The journal stream's events as the Requests view keeps them: checked field by field (the data came from a server,
// so it is `unknown` until read), bounded to the journal's own capacity.

/** One exchange of the stream: the journal entry and, for requests answered while the page watched, its detail. */
export interface ExchangeEvent {
  seq: number;
  at: string;
  method: string;
  path: string;
  query: string;
  operationId: string | null;
  status: number;
  durationMs: number;
  body: string | null;
  session: string;
  detail: ExchangeDetailView | undefined;
}

interface ExchangeDetailView {
  decidedBy: string;
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  responseStatus: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  verdict: {
    ok: boolean;
    violations: { rule: string; pointer: string; specPointer: string; message: string }[];
  } | null;
}

/** The most exchanges the page keeps (the journal's default capacity). */
export const MAX_EXCHANGES = 1000;

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const number = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const strings = (value: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(record(value)).map(([key, item]) => [key, text(item)]));

function detailOf(value: unknown): ExchangeDetailView | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const detail = record(value);
  const request = record(detail.request);
  const response = record(detail.response);
  const verdict = detail.verdict === null ? null : record(detail.verdict);
  return {
    decidedBy: text(detail.decidedBy) || 'normal',
    requestHeaders: strings(request.headers),
    requestBody: typeof request.body === 'string' ? request.body : null,
    responseStatus: number(response.status),
    responseHeaders: strings(response.headers),
    responseBody: text(response.body),
    verdict:
      verdict === null
        ? null
        : {
            ok: verdict.ok === true,
            violations: (Array.isArray(verdict.violations) ? verdict.violations : []).map((item: unknown) => {
              const violation = record(item);
              return {
                rule: text(violation.rule),
                pointer: text(violation.pointer),
                specPointer: text(violation.specPointer),
                message: text(violation.message),
              };
            }),
          },
  };
}

/**
 * Reads one event's data; undefined when it is not an exchange.
 * @example parseExchange('{"entry":{"seq":1,…}}', 'default')?.seq // 1
 */
export function parseExchange(data: string, session: string): ExchangeEvent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  const event = record(parsed);
  const entry = record(event.entry);
  if (typeof entry.seq !== 'number') return undefined;
  return {
    seq: entry.seq,
    at: text(entry.at),
    method: text(entry.method),
    path: text(entry.path),
    query: text(entry.query),
    operationId: typeof entry.operationId === 'string' ? entry.operationId : null,
    status: number(entry.status),
    durationMs: number(entry.durationMs),
    body: typeof entry.body === 'string' ? entry.body : null,
    session,
    detail: detailOf(event.detail),
  };
}
