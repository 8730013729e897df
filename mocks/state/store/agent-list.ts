// The agent list of the control plane: summaries in insertion order (the seeded catalogue first, with the statuses its
// changed agents have now, then the deployed agents), a page of them, optionally of one status.
import type { AgentStatus } from '../../../spec/index.ts';
import type { CatalogueCache } from '../catalogue-cache.ts';
import type { AgentTable } from '../storage.ts';
import type { AgentSummary } from './store-types.ts';

// Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
/** Summaries of the agents in insertion order (the catalogue first), optionally of one status. */
export function listAgents(
  catalogue: CatalogueCache,
  table: AgentTable,
  options: { offset?: number; limit?: number; status?: AgentStatus },
): { total: number; agents: AgentSummary[] } {
  const offset = options.offset ?? 0;
  const limit = options.limit ?? 100;
  const agents: AgentSummary[] = [];
  let total = 0;
  const summary = (agent: AgentSummary): AgentSummary => ({
    agentId: agent.agentId,
    name: agent.name,
    category: agent.category,
    model: agent.model,
    status: agent.status,
  });
  const changed = table.changedCatalogueStatuses();
  catalogue.ids.forEach((agentId, index) => {
    const status = changed.get(agentId) ?? catalogue.status(index);
    if (options.status && status !== options.status) return;
    if (total >= offset && agents.length < limit) {
      const record = changed.has(agentId) ? table.get(agentId) : undefined;
      agents.push(summary(record ?? catalogue.entry(index).agent));
    }
    total += 1;
  });
  const page = table.deployedPage(Math.max(0, offset - total), Math.max(0, limit - agents.length), options.status);
  for (const agent of page.agents) agents.push(summary(agent));
  return { total: total + page.total, agents };
}
// Stryker restore all
