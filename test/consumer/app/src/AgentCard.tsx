// The consumer app's one component: shows an agent of the Agent Registry API and submits a task to it, with a spinner
// while waiting and a message for each error the API documents.
import { useCallback, useEffect, useState } from 'react';
import type { Agent, Problem, TaskSubmission } from 'agent-registry-kit/spec';

export interface AgentCardProps {
  baseUrl: string;
  agentId: string;
  token: string;
}

type Load =
  | { kind: 'loading' }
  | { kind: 'agent'; agent: Agent }
  | { kind: 'error'; message: string; title: string | undefined };

/** What the user reads for each documented error status. */
export function errorMessage(status: number, problem: Partial<Problem>): string {
  if (status === 401) return 'Your session expired: sign in again.';
  if (status === 404) return 'This agent does not exist.';
  if (status === 409) return `The agent does not accept tasks: ${problem.detail ?? ''}`;
  if (status === 429) return 'Too many requests: wait a moment.';
  if (status >= 500) return `The registry is having trouble (${status}).`;
  return problem.detail ?? `Unexpected answer ${status}.`;
}

async function call(url: string, token: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

export function AgentCard({ baseUrl, agentId, token }: AgentCardProps) {
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [task, setTask] = useState<string>('');
  const refresh = useCallback(async () => {
    setLoad({ kind: 'loading' });
    const { status, body } = await call(`${baseUrl}/v1/agents/${encodeURIComponent(agentId)}`, token);
    setLoad(
      status === 200
        ? { kind: 'agent', agent: body as Agent }
        : { kind: 'error', message: errorMessage(status, body as Problem), title: (body as Partial<Problem>).title },
    );
  }, [baseUrl, agentId, token]);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  const run = async () => {
    const { status, body } = await call(`${baseUrl}/v1/agents/${encodeURIComponent(agentId)}/execute`, token, {
      method: 'POST',
      body: JSON.stringify({ task: 'Summarise today' }),
    });
    setTask(status === 200 ? `Task ${(body as TaskSubmission).status}` : errorMessage(status, body as Problem));
  };
  if (load.kind === 'loading') return <p role="status">Loading…</p>;
  // The server's own title of the problem, on hover.
  if (load.kind === 'error')
    return (
      <p role="alert" title={load.title}>
        {load.message}
      </p>
    );
  const { agent } = load;
  return (
    <article>
      <h2>{agent.name}</h2>
      <p>Status: {agent.status}</p>
      <p>Holders: {agent.statistics.holders}</p>
      <p>Tasks completed: {agent.performance.tasksCompleted}</p>
      <p>Success rate: {agent.performance.successRate}</p>
      <button type="button" onClick={() => void run()}>
        Run task
      </button>
      <button type="button" onClick={() => void refresh()}>
        Refresh
      </button>
      {task !== '' && <output>{task}</output>}
    </article>
  );
}
