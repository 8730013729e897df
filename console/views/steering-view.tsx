// Steering: a scenario per operation (error status and ratio, latency), the overrides in force, and reset.
import { useEffect, useState } from 'preact/hooks';
import { call, problemDetail } from '../control-client.ts';
import { consoleOperations, type ConsoleOperation } from '../spec-model.ts';

interface OperationScenario {
  errorStatus?: number;
  errorRatio?: number;
  latencyMs?: number;
}

interface ScenarioConfig {
  latencyMs?: number;
  operations?: Record<string, OperationScenario>;
  rateLimit?: unknown;
  taskFailureRatio?: number;
}

function ScenarioRow({
  operation,
  scenario,
  onChange,
}: {
  operation: ConsoleOperation;
  scenario: OperationScenario | undefined;
  onChange: (next: OperationScenario | undefined) => void;
}) {
  const id = operation.operationId;
  const on = scenario?.errorStatus !== undefined;
  // The status chosen while the toggle is off is kept here, so switching it on fails with that status.
  const [chosen, setChosen] = useState(operation.errorStatuses.find((s) => s >= 500) ?? operation.errorStatuses[0]);
  const status = scenario?.errorStatus ?? chosen;
  const ratio = scenario?.errorRatio ?? 1;
  const latency = scenario?.latencyMs ?? 0;
  const next = (patch: OperationScenario & { on?: boolean }): void => {
    const enabled = patch.on ?? on;
    const result: OperationScenario = {
      ...(enabled && status !== undefined && { errorStatus: patch.errorStatus ?? status, errorRatio: patch.errorRatio ?? ratio }),
      ...((patch.latencyMs ?? latency) > 0 && { latencyMs: patch.latencyMs ?? latency }),
    };
    onChange(Object.keys(result).length === 0 ? undefined : result);
  };
  return (
    <tr>
      <th scope="row">
        {id}
        <div class="muted">
          {operation.method} {operation.path}
        </div>
      </th>
      <td>
        <input
          type="checkbox"
          id={`fail-${id}`}
          checked={on}
          onChange={(event) => next({ on: event.currentTarget.checked })}
        />{' '}
        <label for={`fail-${id}`}>fail with</label>{' '}
        <select
          aria-label={`${id} error status`}
          value={String(status)}
          onChange={(event) => {
            const value = Number(event.currentTarget.value);
            setChosen(value);
            if (on) next({ errorStatus: value });
          }}
        >
          {operation.errorStatuses.map((value) => (
            <option key={value} value={String(value)}>
              {value}
            </option>
          ))}
        </select>
      </td>
      <td>
        <input
          type="number"
          min="0"
          max="1"
          step="0.1"
          aria-label={`${id} error ratio`}
          value={String(ratio)}
          onChange={(event) => next({ errorRatio: Number(event.currentTarget.value) })}
        />
      </td>
      <td>
        <input
          type="number"
          min="0"
          max="60000"
          step="50"
          aria-label={`${id} latency in ms`}
          value={String(latency)}
          onChange={(event) => next({ latencyMs: Number(event.currentTarget.value) })}
        />
      </td>
    </tr>
  );
}

export function SteeringView({ revision, onReset }: { revision: number; onReset: () => void }) {
  const [config, setConfig] = useState<ScenarioConfig>({});
  const [overrides, setOverrides] = useState<{ operationId: string; status: number }[]>([]);
  const [message, setMessage] = useState('');
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    void (async () => {
      const [scenarios, forced] = await Promise.all([call('GET', '/__mock/scenarios'), call('GET', '/__mock/overrides')]);
      if (scenarios.ok) setConfig(scenarios.body as ScenarioConfig);
      if (forced.ok) setOverrides((forced.body as { overrides: { operationId: string; status: number }[] }).overrides);
    })();
  }, [revision, reloads]);
  const save = async (operationId: string, scenario: OperationScenario | undefined): Promise<void> => {
    const operations = { ...config.operations };
    if (scenario === undefined) delete operations[operationId];
    else operations[operationId] = scenario;
    const next: ScenarioConfig = { ...config, operations };
    const reply = await call('PUT', '/__mock/scenarios', next);
    if (reply.ok) setConfig(reply.body as ScenarioConfig);
    setMessage(reply.ok ? `Scenario of ${operationId} saved.` : problemDetail(reply));
  };
  const act = async (method: string, path: string, done: string): Promise<void> => {
    const reply = await call(method, path);
    setMessage(reply.ok ? done : problemDetail(reply));
    setReloads((count) => count + 1);
    if (path === '/__mock/reset') onReset();
  };
  return (
    <div class="steering">
      <section aria-labelledby="scenarios-title" class="card">
        <h3 id="scenarios-title">Scenarios per operation</h3>
        <table>
          <thead>
            <tr>
              <th scope="col">Operation</th>
              <th scope="col">Error</th>
              <th scope="col">Ratio</th>
              <th scope="col">Latency (ms)</th>
            </tr>
          </thead>
          <tbody>
            {consoleOperations.map((operation) => (
              <ScenarioRow
                key={operation.operationId}
                operation={operation}
                scenario={config.operations?.[operation.operationId]}
                onChange={(scenario) => void save(operation.operationId, scenario)}
              />
            ))}
          </tbody>
        </table>
        <button type="button" onClick={() => void act('DELETE', '/__mock/scenarios', 'Every scenario is off.')}>
          Switch every scenario off
        </button>
      </section>
      <section aria-labelledby="overrides-title" class="card">
        <h3 id="overrides-title">Overrides in force ({overrides.length})</h3>
        {overrides.length === 0 ? (
          <p class="muted">None: every operation answers as the fake does.</p>
        ) : (
          <ul>
            {overrides.map((override) => (
              <li key={override.operationId}>
                <code>{override.operationId}</code> answers {override.status}{' '}
                <button
                  type="button"
                  aria-label={`Remove the override of ${override.operationId}`}
                  onClick={() =>
                    void act(
                      'DELETE',
                      `/__mock/overrides/${encodeURIComponent(override.operationId)}`,
                      `The override of ${override.operationId} is removed.`,
                    )
                  }
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <button
          type="button"
          disabled={overrides.length === 0}
          onClick={() => void act('DELETE', '/__mock/overrides', 'Every override is removed.')}
        >
          Remove every override
        </button>
      </section>
      <section aria-labelledby="reset-title" class="card">
        <h3 id="reset-title">Reset</h3>
        <p class="muted">Back to the seeded catalogue: deploys, tasks, scenarios, overrides and the journal go.</p>
        <button type="button" class="danger" onClick={() => void act('POST', '/__mock/reset', 'Reset to the seed.')}>
          Reset the fake
        </button>
      </section>
      <p role="status">{message}</p>
    </div>
  );
}
