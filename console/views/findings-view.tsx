// The proxy's findings, grouped as GET /__mock/violations groups them (one rule at one place, counted, with the values
// found); a finding across exchanges (a read-back that disagrees with its deploy) shows both exchanges.
import { useEffect, useState } from 'preact/hooks';
import { call, problemDetail } from '../control-client.ts';

interface ExchangeRef {
  method: string;
  path: string;
  status: number;
  at: string;
}

interface Finding {
  check: string;
  rule: string;
  part: string;
  operationId: string | null;
  method: string;
  path: string;
  pointer: string;
  specPointer: string;
  origin: string;
  message: string;
  exchanges?: ExchangeRef[];
}

interface FindingGroup {
  violation: Finding;
  count: number;
  firstSeen: string;
  lastSeen: string;
  values: { found: string; count: number }[];
  otherValues: number;
  examples: Finding[];
}

interface FindingsReport {
  total: number;
  dropped: number;
  groups: FindingGroup[];
}

function Group({ group }: { group: FindingGroup }) {
  const { violation } = group;
  return (
    <li class="card finding">
      <h3>
        <span class={`origin ${violation.origin}`}>{violation.origin}</span> <code>{violation.rule}</code> ×{group.count}
      </h3>
      <p>
        {violation.part} of <code>{violation.operationId ?? '(no operation)'}</code> {violation.method} {violation.path}{' '}
        at <code>{violation.pointer || '/'}</code> (rule at <code>{violation.specPointer}</code>)
      </p>
      <p class="muted">
        first {group.firstSeen}, last {group.lastSeen}
      </p>
      {group.values.length > 0 && (
        <p>
          Found:{' '}
          {group.values.map((value) => (
            <span key={value.found} class="value">
              <code>{value.found}</code> ×{value.count}{' '}
            </span>
          ))}
          {group.otherValues > 0 && <span class="muted">and {group.otherValues} others</span>}
        </p>
      )}
      <ul>
        {group.examples.map((example, index) => (
          <li key={`${index}${example.message}`}>
            {example.message}
            {example.exchanges && example.exchanges.length > 0 && (
              <ol class="exchanges-pair" aria-label="The exchanges of this finding">
                {example.exchanges.map((exchange) => (
                  <li key={`${exchange.at}${exchange.path}`}>
                    {exchange.method} {exchange.path} → {exchange.status} <span class="muted">at {exchange.at}</span>
                  </li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ul>
    </li>
  );
}

export function FindingsView({ revision }: { revision: number }) {
  const [report, setReport] = useState<FindingsReport | undefined>(undefined);
  const [message, setMessage] = useState('');
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    void call('GET', '/__mock/violations').then((reply) => {
      if (reply.ok) setReport(reply.body as FindingsReport);
      else setMessage(problemDetail(reply));
    });
  }, [revision, reloads]);
  return (
    <div class="findings">
      <div class="toolbar">
        <strong>
          {report ? `${report.total} violations in ${report.groups.length} groups` : 'Loading…'}
          {report && report.dropped > 0 ? `, ${report.dropped} not kept` : ''}
        </strong>
        <button type="button" onClick={() => setReloads((count) => count + 1)}>
          Refresh
        </button>
        <button
          type="button"
          onClick={() =>
            void call('DELETE', '/__mock/violations').then((reply) => {
              setMessage(reply.ok ? 'Findings cleared.' : problemDetail(reply));
              setReloads((count) => count + 1);
            })
          }
        >
          Clear findings
        </button>
      </div>
      <p role="status">{message}</p>
      {report && report.groups.length === 0 && <p class="muted">No violation so far: every exchange conformed.</p>}
      <ul class="groups">
        {report?.groups.map((group) => (
          <Group key={JSON.stringify([group.violation.rule, group.violation.path, group.violation.pointer])} group={group} />
        ))}
      </ul>
    </div>
  );
}
