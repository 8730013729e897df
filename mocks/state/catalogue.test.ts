import { describe, expect, it } from 'vitest';
import { checkResponse, getAtPointer, openapiDocument } from '../../spec/index.ts';
import { CATALOGUE_EPOCH, CATEGORIES, createCatalogue, MODELS } from './catalogue.ts';

describe('createCatalogue', () => {
  it('is byte-identical for the same seed (determinism)', () => {
    expect(JSON.stringify(createCatalogue(42))).toBe(JSON.stringify(createCatalogue(42)));
    expect(JSON.stringify(createCatalogue(7, 200))).toBe(JSON.stringify(createCatalogue(7, 200)));
  });

  it('differs for another seed', () => {
    expect(createCatalogue(1)[0]?.agent.agentId).not.toBe(createCatalogue(2)[0]?.agent.agentId);
  });

  it('covers every category, model and status of the document with a few dozen agents', () => {
    const agents = createCatalogue(42).map((entry) => entry.agent);
    const documented = (name: string): unknown =>
      new Set(getAtPointer(openapiDocument, `/components/schemas/${name}/enum`) as string[]);
    expect(agents.length).toBeGreaterThanOrEqual(24);
    expect(new Set(agents.map((a) => a.category))).toEqual(documented('AgentCategory'));
    expect(new Set(agents.map((a) => a.model))).toEqual(documented('AgentModel'));
    expect(new Set(agents.map((a) => a.status))).toEqual(documented('AgentStatus'));
    expect(new Set(agents.map((a) => a.agentId)).size).toBe(agents.length);
  });

  it('lays agents out as docs/fake-backend.md says: category i mod 7, model i mod 4, 5/17/29 paused, 11/23/35 deprecated', () => {
    const agents = createCatalogue(42).map((entry) => entry.agent);
    expect(agents.map((a) => a.category).slice(0, 8)).toEqual([...CATEGORIES, CATEGORIES[0]]);
    expect(agents.map((a) => a.model).slice(0, 5)).toEqual([...MODELS, MODELS[0]]);
    const indexesWith = (status: string): number[] =>
      agents.flatMap((a, index) => (a.status === status ? [index] : []));
    expect(indexesWith('paused')).toEqual([5, 17, 29]);
    expect(indexesWith('deprecated')).toEqual([11, 23, 35]);
  });

  it('has internally consistent figures that the spec accepts', () => {
    for (const { agent, tasksFailed } of createCatalogue(42, 300)) {
      const { tokenomics, performance, statistics } = agent;
      expect(tokenomics.marketCap).toBe(tokenomics.price * tokenomics.circulatingSupply);
      expect(tokenomics.circulatingSupply).toBeLessThanOrEqual(tokenomics.totalSupply);
      expect(performance.successRate).toBeGreaterThanOrEqual(0);
      expect(performance.successRate).toBeLessThanOrEqual(1);
      expect(Number.isInteger(performance.tasksCompleted)).toBe(true);
      expect(Number.isInteger(statistics.holders)).toBe(true);
      expect(Number.isInteger(tasksFailed)).toBe(true);
      expect(Date.parse(agent.deployedAt)).toBeLessThan(CATALOGUE_EPOCH);
      const check = checkResponse({
        operationId: 'getAgent',
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify(agent),
      });
      expect(check.violations).toEqual([]);
      expect(check.warnings).toEqual([]);
    }
  });

  it('writes names, descriptions and capabilities that fit the category', () => {
    const agents = createCatalogue(42).map((entry) => entry.agent);
    const trading = agents.filter((a) => a.category === 'trading');
    for (const agent of trading) expect(agent.description).toMatch(/^Trades /);
    const nft = agents.filter((a) => a.category === 'nft');
    for (const agent of nft) expect(agent.description).toMatch(/NFT collections/);
    for (const agent of agents) expect(agent.capabilities.length).toBeGreaterThan(0);
  });
});
