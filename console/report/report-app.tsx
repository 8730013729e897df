// The HTML contract report: the verdict, the coverage matrix, then per operation its checks, each failing one with
// every violation (seed rule or assumption of the spec, with pointers) and the exchange it is about. Built from the
// console's components; every server byte is shown as text.
import { consoleOperations } from '../spec-model.ts';
import { CoverageMatrix } from '../views/coverage-view.tsx';
import { headerLines, TextBlock } from '../views/text-block.tsx';
import type { ReportCheck, ReportExchange, ReportView, ReportViolation } from './report-data.ts';

function Exchange({ exchange, index }: { exchange: ReportExchange; index: number }) {
  return (
    <details class="exchange">
      <summary>
        Exchange {index + 1}: {exchange.method} {exchange.url} → {exchange.response?.status ?? exchange.error ?? 'no answer'}
      </summary>
      <TextBlock title="Request headers" text={headerLines(exchange.requestHeaders) || '(none)'} />
      <TextBlock title="Request body" text={exchange.requestBody ?? '(none)'} />
      {exchange.response && (
        <>
          <TextBlock title={`Response ${exchange.response.status} headers`} text={headerLines(exchange.response.headers)} />
          <TextBlock title="Response body" text={exchange.response.body || '(empty)'} />
        </>
      )}
    </details>
  );
}

/** Exchanges shown per failing check; the rest are counted (a repeated check can hold hundreds). */
const EXCHANGES_SHOWN = 3;

function FailingCheck({ check }: { check: ReportCheck }) {
  // The same rule broken at the same place in many exchanges is one line, counted.
  const distinct = new Map<string, { violation: ReportViolation; count: number }>();
  for (const violation of check.violations) {
    const key = JSON.stringify([violation.rule, violation.pointer, violation.message, violation.origin]);
    const seen = distinct.get(key);
    if (seen) seen.count += 1;
    else distinct.set(key, { violation, count: 1 });
  }
  const named = [...new Set(check.violations.flatMap((violation) => (violation.exchange === undefined ? [] : [violation.exchange])))];
  if (named.length === 0 && check.exchanges.length > 0) named.push(check.exchanges.length - 1);
  const shown = named.slice(0, EXCHANGES_SHOWN);
  return (
    <li class="failing">
      <strong>{check.title}</strong> <code>{check.id}</code>
      <ul class="violations">
        {[...distinct.entries()].map(([key, { violation, count }]) => (
          <li key={key}>
            <span class={`origin ${violation.origin}`}>{violation.origin === 'assumption' ? 'assumption' : 'seed'}</span>{' '}
            <code>{violation.rule}</code> at <code>{violation.pointer || '/'}</code>: {violation.message}
            {violation.specPointer && (
              <>
                {' '}
                (rule at <code>{violation.specPointer}</code>)
              </>
            )}
            {count > 1 && <strong> ×{count}</strong>}
          </li>
        ))}
      </ul>
      {shown.map((index) => {
        const exchange = check.exchanges[index];
        return exchange && <Exchange key={index} exchange={exchange} index={index} />;
      })}
      {named.length > shown.length && (
        <p class="muted">and {named.length - shown.length} more exchanges with a violation (all in --json)</p>
      )}
    </li>
  );
}

function OperationSection({ operationId, checks }: { operationId: string; checks: ReportCheck[] }) {
  const of = (outcome: string): number => checks.filter((check) => check.outcome === outcome).length;
  const failing = checks.filter((check) => check.outcome === 'failed');
  const assumptions = failing.filter((check) => check.violations.every((violation) => violation.origin === 'assumption'));
  return (
    <section class="card" aria-labelledby={`op-${operationId}`}>
      <h2 id={`op-${operationId}`}>{operationId}</h2>
      <p>
        {checks.length} checks: {of('passed')} passed, {of('failed')} failed ({failing.length - assumptions.length}{' '}
        against the service description, {assumptions.length} against assumptions only), {of('skipped')} skipped.
      </p>
      {failing.length > 0 && (
        <ul class="checks">
          {failing.map((check) => (
            <FailingCheck key={check.id} check={check} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function ReportApp({ report }: { report: ReportView }) {
  const byOperation = new Map<string, ReportCheck[]>();
  for (const check of report.checks) byOperation.set(check.operationId, [...(byOperation.get(check.operationId) ?? []), check]);
  const known = new Set(consoleOperations.map((operation) => operation.operationId));
  const names = [...consoleOperations.map((operation) => operation.operationId), ...[...byOperation.keys()].filter((id) => !known.has(id))];
  const summary = Object.entries(report.summary)
    .map(([key, value]) => `${value} ${key}`)
    .join(', ');
  return (
    <main class="console report">
      <h1>
        Contract report: <span class={report.verdict === 'passed' ? 'ok' : 'bad'}>{report.verdict}</span>
      </h1>
      <p>
        {report.baseUrl} against {report.spec}, {report.startedAt}, {Math.round(report.durationMs / 1000)} s: {summary}.
      </p>
      {report.diagnosis.length > 0 && (
        <section class="card" aria-labelledby="diagnosis-title">
          <h2 id="diagnosis-title">Diagnosis</h2>
          <pre>{report.diagnosis.join('\n')}</pre>
        </section>
      )}
      {report.errors.length > 0 && (
        <section class="card" aria-labelledby="errors-title">
          <h2 id="errors-title">Errors of the suite</h2>
          <pre>{report.errors.join('\n\n')}</pre>
        </section>
      )}
      <section class="card" aria-labelledby="coverage-title">
        <h2 id="coverage-title">Status coverage: {report.coverage.percent}%</h2>
        <CoverageMatrix
          count={(operationId, status) =>
            report.coverage.seen.find((seen) => seen.operationId === operationId && seen.status === status)?.count ?? 0
          }
        />
      </section>
      {names.map((operationId) => (
        <OperationSection key={operationId} operationId={operationId} checks={byOperation.get(operationId) ?? []} />
      ))}
    </main>
  );
}
