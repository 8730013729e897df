// Coverage: the spec's operations × their documented statuses, how often each was answered, and the Pact file of it.
import { useEffect, useState } from 'preact/hooks';
import { call, problemDetail } from '../control-client.ts';
import { consoleOperations } from '../spec-model.ts';

interface CoverageEntry {
  category: string;
  operationId: string | null;
  key: string;
  count: number;
  documented: boolean;
}

/**
 * The matrix the console and the contract report show: one row per operation of the spec, one column per status any
 * operation documents, each cell how often that pair was answered (blank where the operation does not document it).
 */
export function CoverageMatrix({ count }: { count: (operationId: string, status: number) => number }) {
  const statuses = [...new Set(consoleOperations.flatMap((operation) => operation.statuses))].sort((a, b) => a - b);
  return (
    <table class="matrix">
      <caption class="sr-only">Answers per operation and documented status</caption>
      <thead>
        <tr>
          <th scope="col">Operation</th>
          {statuses.map((status) => (
            <th scope="col" key={status}>
              {status}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {consoleOperations.map((operation) => (
          <tr key={operation.operationId}>
            <th scope="row">{operation.operationId}</th>
            {statuses.map((status) => {
              if (!operation.statuses.includes(status))
                return (
                  <td key={status} class="na">
                    <span class="sr-only">not documented</span>
                  </td>
                );
              const answered = count(operation.operationId, status);
              return (
                <td key={status} class={answered > 0 ? 'hit' : 'miss'}>
                  {answered}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** `pact`: whether the server makes a Pact file (the fake does, the proxy does not). */
export function CoverageView({ revision, pact }: { revision: number; pact: boolean }) {
  const [coverage, setCoverage] = useState<{ percent: number; requests: number; entries: CoverageEntry[] } | undefined>();
  const [pactUrl, setPactUrl] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState('');
  useEffect(() => {
    void call('GET', '/__mock/coverage').then((reply) => {
      if (reply.ok) setCoverage(reply.body as { percent: number; requests: number; entries: CoverageEntry[] });
      else setMessage(problemDetail(reply));
    });
  }, [revision]);
  const preparePact = async (): Promise<void> => {
    const reply = await call('GET', '/__mock/pact?consumer=my-app&provider=agent-registry');
    if (!reply.ok) {
      setMessage(problemDetail(reply));
      return;
    }
    if (pactUrl) URL.revokeObjectURL(pactUrl);
    setPactUrl(URL.createObjectURL(new Blob([JSON.stringify(reply.body, null, 2)], { type: 'application/json' })));
    setMessage('The Pact file is ready.');
  };
  return (
    <div class="coverage">
      <section aria-labelledby="coverage-title" class="card">
        <h3 id="coverage-title">
          Coverage {coverage ? `${coverage.percent}% of documented statuses, ${coverage.requests} requests` : ''}
        </h3>
        <CoverageMatrix
          count={(operationId, status) =>
            coverage?.entries.find(
              (entry) => entry.category === 'status' && entry.operationId === operationId && entry.key === String(status),
            )?.count ?? 0
          }
        />
      </section>
      {pact && (
      <section aria-labelledby="pact-title" class="card">
        <h3 id="pact-title">Pact file</h3>
        <p class="muted">One interaction per distinct exchange the app made the fake answer.</p>
        <button type="button" onClick={() => void preparePact()}>
          Prepare the Pact file
        </button>{' '}
        {pactUrl && (
          <a href={pactUrl} download="my-app-agent-registry.json">
            Download the Pact file
          </a>
        )}
        <p role="status">{message}</p>
      </section>
      )}
    </div>
  );
}
