// What the HTML contract report reads of a run's report (the JSON `contract --json` writes): only the fields it shows,
// each read defensively, since the exchanges hold bytes a server sent.

export interface ReportExchange {
  operationId: string;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string | undefined;
  response: { status: number; headers: Record<string, string>; body: string } | undefined;
  error: string | undefined;
}

export interface ReportViolation {
  rule: string;
  origin: string;
  pointer: string;
  specPointer: string;
  message: string;
  exchange: number | undefined;
}

export interface ReportCheck {
  id: string;
  check: string;
  operationId: string;
  title: string;
  outcome: string;
  violations: ReportViolation[];
  warnings: ReportViolation[];
  exchanges: ReportExchange[];
}

export interface ReportView {
  verdict: string;
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  spec: string;
  summary: Record<string, number>;
  diagnosis: string[];
  errors: string[];
  checks: ReportCheck[];
  coverage: { percent: number; seen: { operationId: string; status: number; count: number }[] };
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : String(value));
const number = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const strings = (value: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(record(value)).map(([key, item]) => [key, text(item)]));

function violationOf(value: unknown): ReportViolation {
  const item = record(value);
  return {
    rule: text(item.rule),
    origin: text(item.origin),
    pointer: text(item.pointer),
    specPointer: text(item.specPointer),
    message: text(item.message),
    exchange: typeof item.exchange === 'number' ? item.exchange : undefined,
  };
}

function exchangeOf(value: unknown): ReportExchange {
  const item = record(value);
  const request = record(item.request);
  const response = item.response === undefined ? undefined : record(item.response);
  return {
    operationId: text(item.operationId),
    method: text(request.method),
    url: text(request.url),
    requestHeaders: strings(request.headers),
    requestBody: typeof request.body === 'string' ? request.body : undefined,
    response: response && {
      status: number(response.status),
      headers: strings(response.headers),
      body: text(response.body),
    },
    error: typeof item.error === 'string' ? item.error : undefined,
  };
}

/**
 * The report's view from the JSON a run wrote.
 * @example readReport(JSON.parse(jsonText)).verdict // 'failed'
 */
export function readReport(value: unknown): ReportView {
  const report = record(value);
  const spec = record(report.spec);
  const coverage = record(report.statusCoverage);
  return {
    verdict: text(report.verdict),
    baseUrl: text(report.baseUrl),
    startedAt: text(report.startedAt),
    durationMs: number(report.durationMs),
    spec: `${text(spec.title)} ${text(spec.version)}`.trim(),
    summary: Object.fromEntries(Object.entries(record(report.summary)).map(([key, item]) => [key, number(item)])),
    diagnosis: list(report.diagnosis).map(text),
    errors: list(report.errors).map(text),
    checks: list(report.checks).map((value) => {
      const check = record(value);
      return {
        id: text(check.id),
        check: text(check.check),
        operationId: text(check.operationId),
        title: text(check.title),
        outcome: text(check.outcome),
        violations: list(check.violations).map(violationOf),
        warnings: list(check.warnings).map(violationOf),
        exchanges: list(check.exchanges).map(exchangeOf),
      };
    }),
    coverage: {
      percent: number(coverage.percent),
      seen: list(coverage.seen).map((value) => {
        const seen = record(value);
        return { operationId: text(seen.operationId), status: number(seen.status), count: number(seen.count) };
      }),
    },
  };
}
