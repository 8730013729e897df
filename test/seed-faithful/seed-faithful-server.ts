// A server written from the service description alone (000_46b506684fbb389b.txt), not from spec/openapi.yaml, with
// choices of its own wherever the description is silent: no bounds on supply, price, names or tasks (but a finite
// market cap); a price of 0 and the description '(no description)' when none is sent; plain JSON error bodies
// `{ "error": … }`; 400 (not 415) for a body not sent as JSON; 404 for any unknown agentId, however long; its own
// agentId, taskId and tokenAddress formats. `contract --seed-only` must pass it for every seed: a failure is a false
// alarm of the suite. Each defect breaks one rule of the description near its edge only (a far value is still refused).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.ts';

/** One rule of the description checked loosely, as real servers get it wrong. */
export type SeedDefect =
  /** Enums compared without letter case (accepts "DeFi", "GPT-4", "NORMAL"). */
  | 'enum-case'
  /** Enum values trimmed before the comparison (accepts "defi "). */
  | 'enum-space'
  /** revenueShare's range checked on the value rounded to 3 decimals (accepts 1.0001, refuses 1.5). */
  | 'bound-rounded'
  /** Numbers accepted as numeric strings (accepts revenueShare "0.5", refuses "42" for its range). */
  | 'numeric-string'
  /** A one-element array taken for its only item, as `String(["defi"])` is "defi". */
  | 'array-unwrapped'
  /** The token accepted without its Bearer scheme. */
  | 'scheme-optional'
  /** Any number of Bearer schemes stripped before the token. */
  | 'scheme-repeated';

// Section 4.2 and 4.3 of the description.
const categories = ['trading', 'analytics', 'social', 'gaming', 'defi', 'nft', 'automation'];
const models = ['gpt-4', 'gpt-3.5-turbo', 'claude-3', 'llama-2'];
const priorities = ['low', 'normal', 'high'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Fields = Record<string, Json>;

interface Agent {
  agentId: string;
  body: Fields;
  tokenAddress: string;
  deployedAt: string;
}

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The checks of one request body, each a rule of the description, loosened by the server's defects. */
function reader(defects: ReadonlySet<SeedDefect>) {
  const unwrap = (value: Json | undefined): Json | undefined =>
    defects.has('array-unwrapped') && Array.isArray(value) && value.length === 1 ? value[0] : value;
  const member = (value: Json | undefined, allowed: string[]): string | undefined => {
    const given = unwrap(value);
    if (typeof given !== 'string') return undefined;
    let key = given;
    if (defects.has('enum-space')) key = key.trim();
    if (defects.has('enum-case')) key = key.toLowerCase();
    return allowed.includes(key) ? key : undefined;
  };
  const number = (value: Json | undefined): number | undefined => {
    const given = unwrap(value);
    if (typeof given === 'number') return given;
    if (
      defects.has('numeric-string') &&
      typeof given === 'string' &&
      given.trim() !== '' &&
      Number.isFinite(Number(given))
    )
      return Number(given);
    return undefined;
  };
  const string = (value: Json | undefined): string | undefined => {
    const given = unwrap(value);
    return typeof given === 'string' ? given : undefined;
  };
  return { member, number, string };
}

/** The deploy body of section 4.2, or what is wrong with it. Defaults are this server's own choice. */
function readDeploy(body: unknown, defects: ReadonlySet<SeedDefect>): Fields | string {
  if (!isFields(body)) return 'the body must be a JSON object';
  const read = reader(defects);
  const name = read.string(body.name);
  if (name === undefined) return 'name is a required string';
  const category = read.member(body.category, categories);
  if (category === undefined) return `category must be one of ${categories.join(', ')}`;
  const model = read.member(body.model, models);
  if (model === undefined) return `model must be one of ${models.join(', ')}`;
  const initialSupply = read.number(body.initialSupply);
  // The description sets no bound on the supply; a negative supply makes no sense, so 0 and up are taken.
  if (initialSupply === undefined || initialSupply < 0) return 'initialSupply is a required number, not negative';
  const description = body.description === undefined ? '(no description)' : read.string(body.description);
  if (description === undefined) return 'description must be a string';
  const capabilities = body.capabilities === undefined ? [] : body.capabilities;
  if (!Array.isArray(capabilities) || capabilities.some((item) => typeof item !== 'string'))
    return 'capabilities must be an array of strings';
  // Its own default where the description gives none (the spec's is 0.01): a token is free until priced.
  const pricePerToken = body.pricePerToken === undefined ? 0 : read.number(body.pricePerToken);
  if (pricePerToken === undefined || pricePerToken < 0) return 'pricePerToken must be a number, not negative';
  // Its own bound, where the description sets none: the market cap it answers (a number, section 2.2) must be finite.
  if (!Number.isFinite(pricePerToken * initialSupply)) return 'pricePerToken × initialSupply must be a finite number';
  const revenueShare = body.revenueShare === undefined ? 0 : read.number(body.revenueShare);
  const checked =
    revenueShare === undefined
      ? undefined
      : defects.has('bound-rounded')
        ? Math.round(revenueShare * 1000) / 1000
        : revenueShare;
  if (revenueShare === undefined || checked === undefined || checked < 0 || checked > 1)
    return 'revenueShare must be a number from 0 to 1';
  return { name, category, model, initialSupply, description, capabilities, pricePerToken, revenueShare };
}

/** The execute body of section 4.3, or what is wrong with it. */
function readExecute(body: unknown, defects: ReadonlySet<SeedDefect>): Fields | string {
  if (!isFields(body)) return 'the body must be a JSON object';
  const read = reader(defects);
  const task = read.string(body.task);
  if (task === undefined) return 'task is a required string';
  if (body.parameters !== undefined && !isFields(body.parameters)) return 'parameters must be an object';
  const priority = body.priority === undefined ? 'normal' : read.member(body.priority, priorities);
  if (priority === undefined) return `priority must be one of ${priorities.join(', ')}`;
  return { task, priority };
}

function agentRecord(agent: Agent): Fields {
  const { body } = agent;
  const supply = Number(body.initialSupply);
  const price = Number(body.pricePerToken);
  return {
    agentId: agent.agentId,
    name: body.name ?? '',
    description: body.description ?? '',
    category: body.category ?? '',
    model: body.model ?? '',
    capabilities: body.capabilities ?? [],
    tokenAddress: agent.tokenAddress,
    creator: 'seed-faithful',
    tokenomics: {
      totalSupply: supply,
      circulatingSupply: supply,
      price,
      marketCap: price * supply,
      revenueShare: Number(body.revenueShare),
    },
    performance: { totalRevenue: 0, tasksCompleted: 0, successRate: 0, averageResponseTime: 0 },
    statistics: { holders: 1, volume24h: 0, priceChange24h: 0 },
    status: 'active',
    deployedAt: agent.deployedAt,
  };
}

/**
 * Starts the seed-faithful server (with `defects`, a broken variant of it) on a free loopback port; it accepts `token`.
 * @example const server = await startSeedFaithfulServer(token); // contract --seed-only passes it
 */
export function startSeedFaithfulServer(token: string, defects: readonly SeedDefect[] = []): Promise<FixtureServer> {
  const loose = new Set(defects);
  const agents = new Map<string, Agent>();
  let minted = 0;
  const authenticated = (header: string | undefined): boolean => {
    if (header === undefined) return false;
    // Section 5: `Bearer <ACCESS_TOKEN>`; the scheme's letter case is free (RFC 9110, 11.1).
    let rest = header.trim();
    const scheme = /^bearer +/i;
    if (scheme.test(rest)) rest = rest.replace(scheme, '');
    else if (!loose.has('scheme-optional')) return false;
    if (loose.has('scheme-repeated')) while (scheme.test(rest)) rest = rest.replace(scheme, '');
    return rest === token;
  };
  return startFixtureServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (!authenticated(req.headers.authorization)) {
        send(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
        return;
      }
      const parse = (): unknown => {
        const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
        if (type !== 'application/json') return undefined;
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return undefined;
        }
      };
      if (req.method === 'POST' && path === '/v1/agents/deploy') {
        const body = readDeploy(parse(), loose);
        if (typeof body === 'string') return send(res, 400, { error: body });
        minted += 1;
        const agent: Agent = {
          agentId: `seed-agent-${minted}`,
          body,
          tokenAddress: `token-${minted}`,
          deployedAt: new Date().toISOString(),
        };
        agents.set(agent.agentId, agent);
        const record = agentRecord(agent);
        const { name, tokenAddress, status, deployedAt, agentId } = record;
        return send(res, 201, {
          agentId,
          name,
          tokenAddress,
          marketCap: Number(body.pricePerToken) * Number(body.initialSupply),
          holders: 1,
          status,
          deployedAt,
        });
      }
      const match = /^\/v1\/agents\/([^/]+)(\/execute)?$/.exec(path);
      const agent = match ? agents.get(decodeURIComponent(match[1] ?? '')) : undefined;
      if (match && req.method === 'GET' && match[2] === undefined) {
        if (!agent) return send(res, 404, { error: 'no such agent' });
        return send(res, 200, agentRecord(agent));
      }
      if (match && req.method === 'POST' && match[2] === '/execute') {
        if (!agent) return send(res, 404, { error: 'no such agent' });
        const body = readExecute(parse(), loose);
        if (typeof body === 'string') return send(res, 400, { error: body });
        minted += 1;
        return send(res, 200, { taskId: `seed-task-${minted}`, status: 'queued', estimatedCompletion: 30, cost: 1 });
      }
      send(res, 404, { error: 'not found' });
    })().catch(() => send(res, 500, { error: 'internal' }));
  });
}
