// The demo page: starts the fake backend in a Service Worker, then lists, shows, deploys and executes through the typed client,
// and shows every error answer as a readable message.
import type { Agent, DeployRequest, ExecuteRequest, TaskPriority, TaskSubmission } from '../../spec/index.ts';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { setupMockWorker } from '../../mocks/entries/browser.ts';
import { renderAgentDetail, renderAgentList } from './agent-view.ts';
import { createApiClient } from './api-client.ts';
import { createControlClient, type AgentSummary, type TaskView } from './control-client.ts';
import { byId, h } from './element.ts';
import { problemMessage, type ErrorAnswer } from './problem-message.ts';
import { renderTasks, type TrackedTask } from './task-view.ts';

const MESSAGE_LIMIT = 8;
const POLL_MS = 1000;

const ui = {
  workerStatus: byId('worker-status', HTMLSpanElement),
  tokenMode: byId('token-mode', HTMLSelectElement),
  messages: byId('messages', HTMLOListElement),
  agentCount: byId('agent-count', HTMLElement),
  agentList: byId('agent-list', HTMLOListElement),
  lookupForm: byId('lookup-form', HTMLFormElement),
  lookupId: byId('lookup-id', HTMLInputElement),
  detail: byId('agent-detail', HTMLDivElement),
  executeForm: byId('execute-form', HTMLFormElement),
  executeTarget: byId('execute-target', HTMLElement),
  tasks: byId('tasks', HTMLTableElement),
  advanceClock: byId('advance-clock', HTMLButtonElement),
  deployForm: byId('deploy-form', HTMLFormElement),
  openUnknown: byId('open-unknown', HTMLButtonElement),
  rateLimit: byId('rate-limit', HTMLButtonElement),
  clearScenarios: byId('clear-scenarios', HTMLButtonElement),
  reset: byId('reset', HTMLButtonElement),
};

const tokens: Record<string, string> = {};
const state: { agents: AgentSummary[]; selected: Agent | undefined; tasks: TrackedTask[] } = {
  agents: [],
  selected: undefined,
  tasks: [],
};
const api = createApiClient({ baseUrl: location.origin, token: () => tokens[ui.tokenMode.value] ?? '' });
const control = createControlClient(location.origin);

function say(kind: 'info' | 'error', headline: string, lines: string[] = [], status?: number): void {
  const item = h('li', { class: kind, ...(status !== undefined && { 'data-status': String(status) }) }, headline);
  if (lines.length > 0) item.append(h('ul', {}, ...lines.map((line) => h('li', {}, line))));
  ui.messages.prepend(item);
  while (ui.messages.children.length > MESSAGE_LIMIT) ui.messages.lastElementChild?.remove();
}

function sayError(error: ErrorAnswer, doing: string): void {
  const readable = problemMessage(error);
  say('error', `${doing}: ${readable.headline}`, readable.lines, error.status);
}

/** Runs a UI action; a request that could not be made at all (network failure, stopped worker) is shown, not lost. */
function run(doing: string, action: () => Promise<unknown>): void {
  action().catch((error: unknown) =>
    say('error', `${doing} failed before any answer: ${error instanceof Error ? error.message : String(error)}`),
  );
}

/** openapi-fetch gives the parsed error body; the status and Retry-After come from the response. */
function errorOf(response: Response, body: unknown): ErrorAnswer {
  return { status: response.status, body, retryAfter: response.headers.get('retry-after') };
}

async function loadAgents(): Promise<void> {
  const result = await control.listAgents();
  if (!result.ok) return sayError(result.error, 'Listing agents');
  state.agents = result.value;
  ui.agentCount.textContent = `(${state.agents.length})`;
  renderAgentList(ui.agentList, state.agents, state.selected?.agentId, (agentId) =>
    run(`Retrieving ${agentId}`, () => showAgent(agentId)),
  );
}

async function showAgent(agentId: string): Promise<boolean> {
  const { data, error, response } = await api.GET('/v1/agents/{agentId}', { params: { path: { agentId } } });
  if (!data) {
    sayError(errorOf(response, error), `Retrieving ${agentId}`);
    return false;
  }
  const previous = state.selected?.agentId === data.agentId ? state.selected : undefined;
  state.selected = data;
  renderAgentDetail(ui.detail, data, previous);
  ui.executeTarget.textContent = `to ${data.name}`;
  renderAgentList(ui.agentList, state.agents, data.agentId, (id) => run(`Retrieving ${id}`, () => showAgent(id)));
  return true;
}

/** The form as typed: numbers that do not parse are sent as text, so the server's 400 names the field. */
function deployBody(form: FormData): Record<string, unknown> {
  const text = (name: string): string => String(form.get(name) ?? '').trim();
  const numeric = (value: string): number | string =>
    value !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
  const body: Record<string, unknown> = { name: text('name'), category: text('category'), model: text('model') };
  if (text('initialSupply') !== '') body.initialSupply = numeric(text('initialSupply'));
  if (text('description') !== '') body.description = text('description');
  const capabilities = text('capabilities')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (capabilities.length > 0) body.capabilities = capabilities;
  for (const name of ['pricePerToken', 'revenueShare']) if (text(name) !== '') body[name] = numeric(text(name));
  return body;
}

async function deploy(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  // The page does not validate: the fake backend does, as the real service would, and its 400 is what the user reads.
  const body = deployBody(new FormData(ui.deployForm)) as unknown as DeployRequest;
  const { data, error, response } = await api.POST('/v1/agents/deploy', { body });
  if (!data) return sayError(errorOf(response, error), 'Deploying');
  say(
    'info',
    `Deployed ${data.name} as ${data.agentId} (${response.status}), market cap ${data.marketCap} SOL.`,
    [],
    response.status,
  );
  await loadAgents();
  await showAgent(data.agentId);
}

async function execute(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const agent = state.selected;
  if (!agent) return say('error', 'Choose an agent first: tasks are submitted to the agent shown.');
  const form = new FormData(ui.executeForm);
  const body: ExecuteRequest = {
    task: String(form.get('task') ?? ''),
    priority: String(form.get('priority') ?? 'normal') as TaskPriority,
  };
  const { data, error, response } = await api.POST('/v1/agents/{agentId}/execute', {
    params: { path: { agentId: agent.agentId } },
    body,
  });
  if (!data) return sayError(errorOf(response, error), `Submitting a task to ${agent.name}`);
  track(data, agent, body.priority ?? 'normal');
  say(
    'info',
    `Task ${data.taskId} is ${data.status}: about ${data.estimatedCompletion} s, costs ${data.cost} tokens.`,
    [],
    response.status,
  );
}

function track(submission: TaskSubmission, agent: Agent, priority: TaskPriority): void {
  state.tasks.unshift({ ...submission, agentId: agent.agentId, agentName: agent.name, priority });
  renderTasks(ui.tasks, state.tasks);
}

/** Reads every unfinished task's status; when one finishes, shows its agent again so the new figures appear. */
async function refreshTasks(): Promise<void> {
  const finishedAgents = new Set<string>();
  for (const task of state.tasks) {
    if (task.status === 'completed' || task.status === 'failed') continue;
    const result = await control.readTask(task.taskId);
    if (!result.ok) continue;
    const view: TaskView = result.value;
    if (view.status !== task.status) {
      task.status = view.status;
      if (view.status === 'completed' || view.status === 'failed') {
        finishedAgents.add(task.agentId);
        say('info', `Task ${task.taskId} ${view.status}.`);
      }
    }
  }
  renderTasks(ui.tasks, state.tasks);
  if (state.selected && finishedAgents.has(state.selected.agentId)) await showAgent(state.selected.agentId);
}

function pollTasks(): void {
  setTimeout(() => {
    refreshTasks()
      .catch((error: unknown) =>
        say('error', `Reading task statuses failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(pollTasks);
  }, POLL_MS);
}

function wire(): void {
  ui.deployForm.addEventListener('submit', (event) => run('Deploying', () => deploy(event)));
  ui.executeForm.addEventListener('submit', (event) => run('Submitting a task', () => execute(event)));
  ui.lookupForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const agentId = ui.lookupId.value.trim();
    if (agentId === '') return say('error', 'Type an agentId to open.');
    run(`Retrieving ${agentId}`, () => showAgent(agentId));
  });
  ui.openUnknown.addEventListener('click', () =>
    run('Retrieving agt_doesNotExist', () => showAgent('agt_doesNotExist')),
  );
  ui.advanceClock.addEventListener('click', () =>
    run('Advancing the clock', async () => {
      const result = await control.advanceClock(60);
      if (!result.ok) return sayError(result.error, 'Advancing the clock');
      say('info', 'The mock clock moved 60 s forward.');
      await refreshTasks();
    }),
  );
  ui.rateLimit.addEventListener('click', () =>
    run('Setting the rate limit', async () => {
      const result = await control.setRateLimit(2, 60);
      if (result.ok) say('info', 'Scenario on: at most 2 API requests a minute; the next ones get 429.');
      else sayError(result.error, 'Setting the rate limit');
    }),
  );
  ui.clearScenarios.addEventListener('click', () =>
    run('Clearing scenarios', async () => {
      const result = await control.clearScenarios();
      if (result.ok) say('info', 'Scenarios cleared.');
      else sayError(result.error, 'Clearing scenarios');
    }),
  );
  ui.reset.addEventListener('click', () =>
    run('Resetting', async () => {
      const result = await control.reset();
      if (!result.ok) return sayError(result.error, 'Resetting');
      state.selected = undefined;
      state.tasks = [];
      renderTasks(ui.tasks, state.tasks);
      ui.detail.replaceChildren(h('p', { class: 'hint' }, 'Choose an agent, or deploy one.'));
      say('info', 'The mock is back to its seeded catalogue.');
      await loadAgents();
    }),
  );
}

async function main(): Promise<void> {
  wire();
  try {
    // The same three lines a frontend adds to its own app (see the README); the worker script sits beside index.html.
    const worker = setupMockWorker();
    await worker.start({
      onUnhandledFrame: 'bypass',
      serviceWorker: { url: new URL('mockServiceWorker.js', document.baseURI).pathname },
    });
    ui.workerStatus.dataset.state = 'active';
    ui.workerStatus.textContent = 'Mock Service Worker: active';
  } catch (error) {
    ui.workerStatus.dataset.state = 'failed';
    ui.workerStatus.textContent = 'Mock Service Worker: failed';
    say('error', `The mock worker did not start: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  // Minted in the page with the fake's development secret; a real app gets its token from its login flow instead.
  tokens.valid = await mintToken({ sub: 'demo-user' });
  tokens.expired = await mintToken({ sub: 'demo-user', expired: true });
  tokens['wrong-secret'] = await mintToken({ sub: 'demo-user', secret: 'not-the-dev-secret' });
  tokens.none = '';
  await loadAgents();
  pollTasks();
  document.body.dataset.ready = 'true';
}

run('Starting the demo', main);
