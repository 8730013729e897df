// The consumer app's TanStack Query component: the agent AgentCard shows, read with useQuery (polled with
// refetchInterval while its tasks run) and a task submitted with useMutation. The app's client retries 429 and 503
// after the server's Retry-After, and nothing else; a test client turns retries off.
import { QueryClient, useMutation, useQuery } from '@tanstack/react-query';
import type { Agent, Problem, TaskSubmission } from 'agent-registry-kit/spec';
import { errorMessage } from './AgentCard';

/** A non-2xx answer: its status, problem and Retry-After (seconds), with the message the user reads. */
export class ApiError extends Error {
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;
  constructor(status: number, problem: Partial<Problem>, retryAfter: string | null) {
    super(errorMessage(status, problem));
    this.status = status;
    this.retryAfterSeconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  }
}

async function call<T>(url: string, token: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  const body = (await response.json()) as unknown;
  if (!response.ok) throw new ApiError(response.status, body as Problem, response.headers.get('retry-after'));
  return body as T;
}

const retryable = (error: Error): error is ApiError =>
  error instanceof ApiError && (error.status === 429 || error.status === 503);

/** The app's retry policy: a 429 or 503 again after its Retry-After, twice at most; any other error at once. */
export const retryPolicy = {
  retry: (failureCount: number, error: Error): boolean => retryable(error) && failureCount < 2,
  retryDelay: (_attempt: number, error: Error): number =>
    ((retryable(error) ? error.retryAfterSeconds : undefined) ?? 1) * 1000,
};

/** The client the app renders with (main.tsx); tests make their own. */
export function createAppQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: retryPolicy, mutations: retryPolicy } });
}

/** "Retrying in N s." while a retryable error waits for its Retry-After. */
function waiting(reason: Error | null): string {
  return reason !== null && retryable(reason) ? `${reason.message} Retrying in ${reason.retryAfterSeconds ?? 1} s.` : '';
}

export interface AgentQueryCardProps {
  baseUrl: string;
  agentId: string;
  token: string;
  /** Poll the agent every this many milliseconds (its figures move as its tasks finish); default: no polling. */
  pollMs?: number;
}

export function AgentQueryCard({ baseUrl, agentId, token, pollMs }: AgentQueryCardProps) {
  const url = `${baseUrl}/v1/agents/${encodeURIComponent(agentId)}`;
  const agent = useQuery({
    queryKey: ['agent', baseUrl, agentId],
    queryFn: () => call<Agent>(url, token),
    refetchInterval: pollMs ?? false,
  });
  const run = useMutation({
    mutationFn: () =>
      call<TaskSubmission>(`${url}/execute`, token, { method: 'POST', body: JSON.stringify({ task: 'Summarise' }) }),
  });
  const retrying = waiting(agent.failureReason);
  if (agent.isPending) return <p role="status">{retrying || 'Loading…'}</p>;
  if (agent.isError) return <p role="alert">{agent.error.message}</p>;
  const runRetrying = waiting(run.failureReason);
  return (
    <article>
      <h2>{agent.data.name}</h2>
      <p>Tasks completed: {agent.data.performance.tasksCompleted}</p>
      {retrying !== '' && <p role="status">{retrying}</p>}
      <button type="button" onClick={() => run.mutate()}>
        Run task
      </button>
      <output>
        {run.isPending && (runRetrying || 'Submitting…')}
        {run.isSuccess && `Task ${run.data.status}`}
        {run.isError && run.error.message}
      </output>
    </article>
  );
}
