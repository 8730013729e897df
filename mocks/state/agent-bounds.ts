// What the fake requires of every agent beside the spec's Agent schema: the bounds of a deploy and an id and creator it
// can store and serve. The domain's own rule, used by the seeds and by every check of a stored or pulled agent.
import { validateSchema, type Agent, type ValidationError } from '../../spec/index.ts';
import { agentIdProblem, creatorProblem } from './agent-identity.ts';

/** Where each field of a deploy request lives in the agent it made. */
const DEPLOYED_AS: Readonly<Record<string, string>> = {
  initialSupply: '/tokenomics/totalSupply',
  pricePerToken: '/tokenomics/price',
  revenueShare: '/tokenomics/revenueShare',
};

// Stryker disable all: not reached: the check of a seeded, stored or pulled agent (the seeds, durable storage); the API's deploy is checked by the spec's validator
/**
 * What the fake requires of every agent beside the spec's Agent schema, however it comes in (a deploy, a seed, a stored
 * or pulled row, a recording): its deploy fields within a deploy request's bounds, its id and creator as the fake can
 * store and serve them (agent-identity.ts). One check for every way in, so an agent acknowledged once is loaded again.
 * @example agentRecordErrors({ ...agent, creator: 'x'.repeat(70_000) }) // [{ path: '/creator', message: 'has 70000 characters, more than 256' }]
 */
export function agentRecordErrors(agent: Agent): ValidationError[] {
  const errors = deployBoundsErrors(agent);
  const creator = creatorProblem(agent.creator);
  if (creator !== undefined) errors.push({ path: '/creator', message: creator });
  const agentId = agentIdProblem(agent.agentId);
  if (agentId !== undefined) errors.push({ path: '/agentId', message: agentId });
  return errors;
}

/**
 * Where an agent's deploy fields leave the bounds a deploy request has (name 1–100 characters…), by the agent's own
 * pointers: an agent outside them could never have been deployed.
 * @example deployBoundsErrors({ ...agent, name: 'x'.repeat(300) }) // [{ path: '/name', message: 'must NOT have more than 100 characters' }]
 */
function deployBoundsErrors(agent: Agent): ValidationError[] {
  const asDeployed = validateSchema('DeployRequest', {
    name: agent.name,
    description: agent.description,
    category: agent.category,
    model: agent.model,
    capabilities: agent.capabilities,
    initialSupply: agent.tokenomics.totalSupply,
    pricePerToken: agent.tokenomics.price,
    revenueShare: agent.tokenomics.revenueShare,
  });
  if (asDeployed.ok) return [];
  return asDeployed.errors.map((error) => {
    const [, field = '', rest = ''] = /^\/([^/]*)(.*)$/.exec(error.path) ?? [];
    return { ...error, path: `${DEPLOYED_AS[field] ?? `/${field}`}${rest}` };
  });
}
