// Shows agents: the list of the store's agents, and one agent's detail (tokenomics, performance, statistics), marking
// the figures that changed since the agent was last shown so a finished task's effect is visible.
import type { Agent } from '../../spec/index.ts';
import type { AgentSummary } from './control-client.ts';
import { h } from './element.ts';

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

/**
 * Renders the agent list; a click on an agent calls `onSelect` with its id.
 * @example renderAgentList(listElement, agents, 'agt_1', (agentId) => void showAgent(agentId));
 */
export function renderAgentList(
  container: HTMLElement,
  agents: readonly AgentSummary[],
  selectedId: string | undefined,
  onSelect: (agentId: string) => void,
): void {
  const items = agents.map((agent) => {
    const button = h(
      'button',
      {
        type: 'button',
        class: 'agent-row',
        'data-agent-id': agent.agentId,
        'data-status': agent.status,
        ...(agent.agentId === selectedId && { 'aria-current': 'true' }),
      },
      h('span', { class: 'agent-name' }, agent.name),
      h('span', { class: 'agent-meta' }, `${agent.category} · ${agent.model}`),
      h('span', { class: `pill ${agent.status}` }, agent.status),
    );
    button.addEventListener('click', () => onSelect(agent.agentId));
    return h('li', {}, button);
  });
  container.replaceChildren(...items);
}

type Figures = Record<string, number>;

function figureTable(title: string, testId: string, figures: Figures, previous: Figures | undefined): HTMLElement {
  const rows = Object.entries(figures).map(([name, value]) => {
    const before = previous?.[name];
    const changed = before !== undefined && before !== value;
    return h(
      'tr',
      { 'data-field': name, ...(changed && { class: 'changed' }) },
      h('th', { scope: 'row' }, name),
      h('td', {}, number.format(value), changed && h('span', { class: 'was' }, ` (was ${number.format(before)})`)),
    );
  });
  return h(
    'section',
    { class: 'figures', 'data-testid': testId },
    h('h3', {}, title),
    h('table', {}, h('tbody', {}, ...rows)),
  );
}

/**
 * Renders one agent's detail; `previous` is the same agent as last shown, to mark what changed.
 * @example renderAgentDetail(detailElement, agent, lastShown?.agentId === agent.agentId ? lastShown : undefined);
 */
export function renderAgentDetail(container: HTMLElement, agent: Agent, previous: Agent | undefined): void {
  const facts: Array<[string, string]> = [
    ['agentId', agent.agentId],
    ['category', agent.category],
    ['model', agent.model],
    ['creator', agent.creator],
    ['tokenAddress', agent.tokenAddress],
    ['deployedAt', agent.deployedAt],
    ['capabilities', agent.capabilities.length > 0 ? agent.capabilities.join(', ') : '(none)'],
  ];
  container.replaceChildren(
    h(
      'h2',
      { 'data-testid': 'agent-name' },
      agent.name,
      ' ',
      h('span', { class: `pill ${agent.status}`, 'data-testid': 'agent-status' }, agent.status),
    ),
    ...(agent.description !== '' ? [h('p', { class: 'description' }, agent.description)] : []),
    h(
      'dl',
      { class: 'facts' },
      ...facts.flatMap(([name, value]) => [h('dt', {}, name), h('dd', { 'data-field': name }, value)]),
    ),
    h(
      'div',
      { class: 'figure-grid' },
      figureTable('Tokenomics', 'tokenomics', { ...agent.tokenomics }, previous && { ...previous.tokenomics }),
      figureTable('Performance', 'performance', { ...agent.performance }, previous && { ...previous.performance }),
      figureTable('Statistics', 'statistics', { ...agent.statistics }, previous && { ...previous.statistics }),
    ),
  );
}
