// The conversation rules on exchanges given directly: what the window remembers and forgets, and when a rule is judged.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../spec/index.ts';
import { Conversation, type ObservedExchange } from './conversation.ts';
import { checkExchange } from './exchange-check.ts';

const at = new Date(Date.UTC(2026, 10, 28));

function exchange(
  fields: Pick<ObservedExchange, 'operationId' | 'method' | 'path' | 'template' | 'status'> & {
    parameters?: Record<string, string>;
    request?: JsonObject;
    response?: JsonObject;
  },
): ObservedExchange {
  return {
    parameters: {},
    requestValid: true,
    at,
    malformed: new Map(),
    ...fields,
    json: { request: () => fields.request, response: () => fields.response },
  };
}

const sent = { name: 'Windowed', category: 'defi', model: 'gpt-4', initialSupply: 10 };
const deploy = (agentId: string) =>
  exchange({
    operationId: 'deployAgent',
    method: 'POST',
    path: '/v1/agents/deploy',
    template: '/v1/agents/deploy',
    status: 201,
    request: sent,
    response: { agentId, name: sent.name, status: 'active' },
  });
const readBack = (agentId: string, status = 404) =>
  exchange({
    operationId: 'getAgent',
    method: 'GET',
    path: `/v1/agents/${agentId}`,
    template: '/v1/agents/{agentId}',
    status,
    parameters: { agentId },
  });

describe('Conversation', () => {
  it('judges the read-back of a deploy in its window, and forgets the oldest past 256 deploys', () => {
    const conversation = new Conversation();
    for (let i = 0; i <= 256; i += 1) expect(conversation.observe(deploy(`agt_${i}`))).toEqual([]);
    // agt_0 left the window: its 404 is not judged; agt_1 is still in it.
    expect(conversation.observe(readBack('agt_0'))).toEqual([]);
    const [finding] = conversation.observe(readBack('agt_1'));
    expect(finding?.rule).toBe('deployed-agent-retrievable');
    expect(finding?.exchanges?.map((e) => e.path)).toEqual(['/v1/agents/deploy', '/v1/agents/agt_1']);
  });

  it('learns nothing from a request the proxy found invalid, and forgets everything on clear', () => {
    const conversation = new Conversation();
    conversation.observe({ ...deploy('agt_x'), requestValid: false });
    expect(conversation.observe(readBack('agt_x'))).toEqual([]);
    conversation.observe(deploy('agt_y'));
    conversation.clear();
    expect(conversation.observe(readBack('agt_y'))).toEqual([]);
    expect(conversation.observe(deploy('agt_y'))).toEqual([]);
    expect(conversation.observe(deploy('agt_y')).map((v) => v.rule)).toEqual(['distinct-agent-ids']);
  });

  it('keeps of a deploy only what its read-back must show, not an answer of megabytes', () => {
    const conversation = new Conversation();
    const junk = Array.from({ length: 200_000 }, () => ({}));
    for (let i = 0; i < 20; i += 1)
      conversation.observe({
        ...deploy(`agt_${i}`),
        json: { request: () => sent, response: () => ({ agentId: `agt_${i}`, junk }) },
      });
    expect(conversation.held.deploys).toBe(20);
    expect(conversation.held.deployBytes).toBeLessThan(20 * 2048);
  });

  it('bounds the deploys remembered in bytes: one whose echoed values pass 64 KiB is not kept, all past 4 MiB the oldest go', () => {
    const conversation = new Conversation();
    const large = (agentId: string, size: number) => ({
      ...deploy(agentId),
      json: { request: () => sent, response: () => ({ agentId, deployedAt: 'x'.repeat(size) }) },
    });
    conversation.observe(large('agt_huge', 100 * 1024));
    expect(conversation.observe(readBack('agt_huge'))).toEqual([]);
    for (let i = 0; i < 100; i += 1) conversation.observe(large(`agt_${i}`, 60 * 1024));
    expect(conversation.held.deployBytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(conversation.observe(readBack('agt_0'))).toEqual([]);
    expect(conversation.observe(readBack('agt_99')).map((v) => v.rule)).toEqual(['deployed-agent-retrievable']);
  });

  it('does not remember ids longer than 256 characters (a server answering 1 MiB ids)', () => {
    const conversation = new Conversation();
    const id = 'a'.repeat(1024 * 1024);
    conversation.observe(deploy(id));
    expect(conversation.observe(deploy(id))).toEqual([]);
    expect(conversation.held.ids).toBe(0);
  });

  it('takes a deploy answer nesting 1,000,000 levels as one violation, never a value it walks', () => {
    const jwt = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1bml0In0.c2lnbmF0dXJlc2lnbmF0dXJl';
    const checked = checkExchange({
      method: 'POST',
      path: '/v1/agents/deploy',
      requestHeaders: { 'content-type': 'application/json', authorization: jwt },
      requestBody: JSON.stringify(sent),
      status: 201,
      responseHeaders: { 'content-type': 'application/json' },
      responseBody: `{"agentId":"agt_1","status":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`,
    });
    expect(checked.violations.map((v) => v.rule)).toEqual(['body-is-json']);
    const conversation = new Conversation();
    expect(() => conversation.observe({ ...deploy('agt_1'), json: checked.json })).not.toThrow();
  });
});
