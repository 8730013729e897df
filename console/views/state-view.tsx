// State: the agents (search, open one, change its status), the tasks on the mock's clock, the clock, and seeding.
import { useEffect, useState } from 'preact/hooks';
import { call, problemDetail } from '../control-client.ts';
import { SeedForm } from './seed-form.tsx';

interface AgentRow {
  agentId: string;
  name: string;
  category: string;
  model: string;
  status: string;
}

interface TaskRow {
  taskId: string;
  agentId: string;
  status: string;
  priority: string;
  submittedAt: string;
  startsAt: string;
  finishesAt: string;
}

const STATUSES = ['active', 'paused', 'deprecated'];

function rows<T>(body: unknown, key: string): T[] {
  const list = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined;
  return Array.isArray(list) ? (list as T[]) : [];
}

/** Where a task stands between submission and finish, as a share of its whole time (0..1). */
function progress(task: TaskRow, now: number): number {
  const start = Date.parse(task.submittedAt);
  const end = Date.parse(task.finishesAt);
  if (!(end > start)) return 1;
  return Math.min(1, Math.max(0, (now - start) / (end - start)));
}

function Clock({ now, offsetMs, onAdvance }: { now: string; offsetMs: number; onAdvance: (s: number) => void }) {
  const [seconds, setSeconds] = useState('30');
  return (
    <section aria-labelledby="clock-title" class="card">
      <h3 id="clock-title">Mock clock</h3>
      <p>
        <time>{now}</time> <span class="muted">(advanced by {Math.round(offsetMs / 1000)} s)</span>
      </p>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          onAdvance(Number(seconds));
        }}
      >
        <label for="advance-seconds">Advance by (s)</label>
        <input id="advance-seconds" type="number" min="0" value={seconds} onInput={(e) => setSeconds(e.currentTarget.value)} />
        <button type="submit">Advance</button>
      </form>
    </section>
  );
}

function Tasks({ tasks, now }: { tasks: TaskRow[]; now: number }) {
  return (
    <section aria-labelledby="tasks-title" class="card">
      <h3 id="tasks-title">Tasks ({tasks.length})</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">Agent</th>
            <th scope="col">Status</th>
            <th scope="col">Priority</th>
            <th scope="col">On the clock</th>
          </tr>
        </thead>
        <tbody>
          {tasks.map((task) => (
            <tr key={task.taskId}>
              <td>{task.taskId}</td>
              <td>{task.agentId}</td>
              <td>{task.status}</td>
              <td>{task.priority}</td>
              <td>
                <progress max={100} value={Math.round(progress(task, now) * 100)} aria-label={`${task.taskId} progress`} />{' '}
                <span class="muted">finishes {task.finishesAt.slice(11, 19)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function AgentDetail({ agentId, onChanged }: { agentId: string; onChanged: () => void }) {
  const [agent, setAgent] = useState<unknown>(undefined);
  const [message, setMessage] = useState('');
  useEffect(() => {
    void call('GET', `/__mock/agents/${encodeURIComponent(agentId)}`).then((reply) =>
      setAgent(reply.ok ? reply.body : problemDetail(reply)),
    );
  }, [agentId]);
  const status = typeof agent === 'object' && agent !== null ? String((agent as { status?: unknown }).status) : '';
  const change = async (next: string): Promise<void> => {
    const reply = await call('PUT', `/__mock/agents/${encodeURIComponent(agentId)}/status`, { status: next });
    if (reply.ok) setAgent(reply.body);
    setMessage(reply.ok ? `Status set to ${next}.` : problemDetail(reply));
    onChanged();
  };
  return (
    <section class="card detail" aria-label={`Agent ${agentId}`}>
      <h3>{agentId}</h3>
      <label for="agent-status">Status</label>{' '}
      <select id="agent-status" value={status} onChange={(event) => void change(event.currentTarget.value)}>
        {STATUSES.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
      <p role="status">{message}</p>
      <pre>{typeof agent === 'string' ? agent : JSON.stringify(agent, null, 2)}</pre>
    </section>
  );
}

export function StateView({ revision }: { revision: number }) {
  const [agents, setAgents] = useState<AgentRow[]>([]);
  const [tasks, setTasks] = useState<TaskRow[]>([]);
  const [clock, setClock] = useState({ now: '', offsetMs: 0 });
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState('');
  const [reloads, setReloads] = useState(0);
  const reload = (): void => setReloads((count) => count + 1);
  useEffect(() => {
    void (async () => {
      const [list, taskList, time] = await Promise.all([
        call('GET', '/__mock/agents?limit=1000'),
        call('GET', '/__mock/tasks?limit=100'),
        call('GET', '/__mock/clock'),
      ]);
      setAgents(rows<AgentRow>(list.body, 'agents'));
      setTasks(rows<TaskRow>(taskList.body, 'tasks'));
      if (time.ok) setClock(time.body as { now: string; offsetMs: number });
    })();
  }, [revision, reloads]);
  const advance = async (seconds: number): Promise<void> => {
    const reply = await call('POST', '/__mock/clock/advance', { seconds });
    setMessage(reply.ok ? `Advanced ${seconds} s.` : problemDetail(reply));
    reload();
  };
  const needle = search.trim().toLowerCase();
  const shown = agents.filter(
    (agent) => needle === '' || `${agent.agentId} ${agent.name} ${agent.category} ${agent.model} ${agent.status}`.toLowerCase().includes(needle),
  );
  return (
    <div class="state">
      <Clock now={clock.now} offsetMs={clock.offsetMs} onAdvance={(s) => void advance(s)} />
      <p role="status">{message}</p>
      <section aria-labelledby="agents-title" class="card">
        <h3 id="agents-title">Agents ({agents.length})</h3>
        <label for="agent-search">Search</label>{' '}
        <input id="agent-search" type="search" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
        <div class="split">
          <div class="scroll">
          <table class="agents">
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Name</th>
                <th scope="col">Category</th>
                <th scope="col">Model</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((agent) => (
                <tr key={agent.agentId} class={agent.agentId === open ? 'selected' : ''}>
                  <td>
                    <button type="button" class="link" onClick={() => setOpen(agent.agentId)}>
                      {agent.agentId}
                    </button>
                  </td>
                  <td>{agent.name}</td>
                  <td>{agent.category}</td>
                  <td>{agent.model}</td>
                  <td>{agent.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
          {open !== undefined && <AgentDetail agentId={open} onChanged={reload} />}
        </div>
      </section>
      <Tasks tasks={tasks} now={Date.parse(clock.now)} />
      <SeedForm onSeeded={reload} />
    </div>
  );
}
