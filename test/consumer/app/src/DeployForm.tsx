// The consumer app's deploy form: a name, a category and a revenue share, posted to the Agent Registry API; the test
// checks what it sent through the kit's `api.requests` / `api.waitForRequest` rather than by stubbing fetch.
import { useState, type FormEvent } from 'react';
import type { DeployResult, Problem } from 'agent-registry-kit/spec';
import { errorMessage } from './AgentCard';

export interface DeployFormProps {
  baseUrl: string;
  token: string;
}

export function DeployForm({ baseUrl, token }: DeployFormProps) {
  const [outcome, setOutcome] = useState('');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    if (name === '') {
      setOutcome('Give the agent a name.');
      return;
    }
    const response = await fetch(`${baseUrl}/v1/agents/deploy`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name,
        category: String(form.get('category')),
        model: 'gpt-4',
        initialSupply: 1_000_000,
        // Left empty, the share is not sent: the API's default applies.
        ...(form.get('revenueShare') !== '' && { revenueShare: Number(form.get('revenueShare')) }),
      }),
    });
    const body = (await response.json()) as DeployResult | Problem;
    setOutcome(
      response.status === 201 ? `Deployed ${(body as DeployResult).agentId}` : errorMessage(response.status, body as Problem),
    );
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <label>
        Name <input name="name" />
      </label>
      <label>
        Category
        <select name="category" defaultValue="trading">
          <option value="trading">Trading</option>
          <option value="defi">DeFi</option>
        </select>
      </label>
      <label>
        Revenue share <input name="revenueShare" type="number" step="0.01" defaultValue="0.05" />
      </label>
      <button type="submit">Deploy</button>
      {outcome !== '' && <output>{outcome}</output>}
    </form>
  );
}
