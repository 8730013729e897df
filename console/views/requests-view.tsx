// Requests: every /v1 exchange of the watched session, live from the journal stream, with filters and the detail of one.
import { useMemo, useState } from 'preact/hooks';
import type { ExchangeEvent } from '../journal-events.ts';
import { consoleOperations } from '../spec-model.ts';
import { headerLines, TextBlock } from './text-block.tsx';

interface Filters {
  operation: string;
  status: string;
}

function matches(exchange: ExchangeEvent, filters: Filters): boolean {
  if (filters.operation !== '' && (exchange.operationId ?? '(none)') !== filters.operation) return false;
  if (filters.status === '') return true;
  const status = String(exchange.status);
  return filters.status.endsWith('xx') ? status[0] === filters.status[0] : status === filters.status;
}

/** The request, the answer and the spec's verdict of one exchange; every byte is shown as text, never as markup. */
function ExchangeDetail({ exchange }: { exchange: ExchangeEvent }) {
  const { detail } = exchange;
  const target = `${exchange.method} ${exchange.path}${exchange.query === '' ? '' : `?${exchange.query}`}`;
  return (
    <section class="detail" aria-label={`Exchange ${exchange.seq}`}>
      <h3>
        #{exchange.seq} {target} → {exchange.status}
      </h3>
      {detail === undefined ? (
        <>
          <p class="muted">Answered before the console opened: the journal keeps the request line and body only.</p>
          <TextBlock title="Request body" text={exchange.body ?? '(none)'} />
        </>
      ) : (
        <>
          <p>
            Decided by <strong>{detail.decidedBy}</strong>
          </p>
          <TextBlock title="Request headers" text={headerLines(detail.requestHeaders) || '(none shown)'} />
          <TextBlock title="Request body" text={detail.requestBody ?? '(none)'} />
          <TextBlock title={`Response ${detail.responseStatus} headers`} text={headerLines(detail.responseHeaders)} />
          <TextBlock title="Response body" text={detail.responseBody || '(empty)'} />
          <h4>Spec verdict</h4>
          {detail.verdict === null ? (
            <p class="muted">No operation of the spec: nothing to check.</p>
          ) : detail.verdict.ok ? (
            <p class="ok">Conforms to spec/openapi.yaml.</p>
          ) : (
            <ul class="violations">
              {detail.verdict.violations.map((violation) => (
                <li key={`${violation.rule}${violation.pointer}`}>
                  <code>{violation.rule}</code> at <code>{violation.pointer || '/'}</code>: {violation.message} (rule at{' '}
                  <code>{violation.specPointer}</code>)
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

export function RequestsView({ exchanges, connected }: { exchanges: readonly ExchangeEvent[]; connected: boolean }) {
  const [filters, setFilters] = useState<Filters>({ operation: '', status: '' });
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const statuses = useMemo(
    () => [...new Set(exchanges.map((exchange) => String(exchange.status)))].sort(),
    [exchanges],
  );
  const shown = exchanges.filter((exchange) => matches(exchange, filters)).reverse();
  const chosen = exchanges.find((exchange) => exchange.seq === selected);
  return (
    <div class="requests">
      <div class="toolbar" role="group" aria-label="Filters">
        <label>
          Operation{' '}
          <select
            value={filters.operation}
            onChange={(event) => setFilters({ ...filters, operation: event.currentTarget.value })}
          >
            <option value="">all</option>
            {consoleOperations.map((operation) => (
              <option key={operation.operationId} value={operation.operationId}>
                {operation.operationId}
              </option>
            ))}
            <option value="(none)">(no operation)</option>
          </select>
        </label>
        <label>
          Status{' '}
          <select
            value={filters.status}
            onChange={(event) => setFilters({ ...filters, status: event.currentTarget.value })}
          >
            <option value="">all</option>
            <option value="2xx">2xx</option>
            <option value="4xx">4xx</option>
            <option value="5xx">5xx</option>
            {statuses.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <span class={connected ? 'live on' : 'live'} role="status">
          {connected ? 'live' : 'connecting…'}
        </span>
        <span class="muted">
          {shown.length} of {exchanges.length}
        </span>
      </div>
      <div class="split">
        <table class="exchanges">
          <caption class="sr-only">Requests to the API, newest first</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Operation</th>
              <th scope="col">Request</th>
              <th scope="col">Status</th>
              <th scope="col">ms</th>
              <th scope="col">Session</th>
              <th scope="col">Decided by</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((exchange) => (
              <tr key={exchange.seq} class={exchange.seq === selected ? 'selected' : ''}>
                <td>
                  <button
                    type="button"
                    class="link"
                    aria-pressed={exchange.seq === selected}
                    onClick={() => setSelected(exchange.seq)}
                  >
                    {exchange.seq}
                  </button>
                </td>
                <td>{exchange.operationId ?? '—'}</td>
                <td class="path">
                  {exchange.method} {exchange.path}
                </td>
                <td class={`status s${String(exchange.status)[0]}`}>{exchange.status}</td>
                <td>{exchange.durationMs.toFixed(1)}</td>
                <td>{exchange.session}</td>
                <td>{exchange.detail?.decidedBy ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {chosen ? <ExchangeDetail exchange={chosen} /> : <p class="muted detail">Choose a request to see it whole.</p>}
      </div>
    </div>
  );
}
