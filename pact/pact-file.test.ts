// Reading Pact files of each specification as pact-js and the Pact core write them: provider states, headers, bodies,
// queries and matching rules end in one shape; what is not a pact is one line naming what is wrong.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PactFileError, parsePact } from './pact-file.ts';

const fixture = (name: string): string =>
  readFileSync(new URL(`../test/pact/fixtures/${name}`, import.meta.url), 'utf8');

describe('parsePact', () => {
  it('reads Pact 2: one providerState string, a query string, flat $.body matching rules', () => {
    const pact = parsePact(fixture('valid/v2-get-agent.json'));
    expect(pact).toMatchObject({ version: 2, specification: '2.0.0', consumer: 'web-app', provider: 'agent-registry' });
    const [interaction] = pact.interactions;
    expect(interaction?.providerStates).toEqual([{ name: 'agent agt_3Hd8sQ1mZc6YbN2e exists with status paused' }]);
    expect(interaction?.request?.headers.authorization).toMatch(/^Bearer /);
    expect(interaction?.response?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(interaction?.response?.body ?? '')).toMatchObject({ status: 'paused' });
    expect(interaction?.response?.matchingRules).toContainEqual({
      category: 'body',
      place: ['status'],
      matchers: [{ match: 'regex', regex: '^(active|paused|deprecated)$' }],
    });
    expect(interaction?.request?.matchingRules).toContainEqual(
      expect.objectContaining({ category: 'header', place: ['Authorization'] }),
    );
    const query = parsePact(
      JSON.stringify({
        ...JSON.parse(fixture('valid/v2-get-agent.json')),
        interactions: [
          {
            ...pact.interactions[0],
            request: { method: 'get', path: '/v1/agents/a', query: 'x=1&x=2&y=3' },
            response: { status: 200 },
          },
        ],
      }),
    );
    expect(query.interactions[0]?.request).toMatchObject({ method: 'GET', query: { x: ['1', '2'], y: ['3'] } });
  });

  it('reads Pact 3: providerStates with params, a query object, matching rules by category', () => {
    const pact = parsePact(fixture('valid/v3-execute-task.json'));
    expect(pact.version).toBe(3);
    const [interaction] = pact.interactions;
    expect(interaction?.providerStates[0]).toEqual({
      name: 'agent agt_7Qm2xK9pLr4TnW8v exists with status active',
      params: { agentId: 'agt_7Qm2xK9pLr4TnW8v', status: 'active' },
    });
    expect(interaction?.request).toMatchObject({ method: 'POST', path: '/v1/agents/agt_7Qm2xK9pLr4TnW8v/execute' });
    expect(JSON.parse(interaction?.request?.body ?? '')).toEqual({
      task: 'Summarise the SOL market',
      priority: 'high',
    });
    expect(interaction?.response?.matchingRules.map((rule) => rule.place)).toEqual([['taskId'], ['status']]);
    expect(parsePact(fixture('valid/v3-unknown-query-parameter.json')).interactions[0]?.request?.query).toEqual({
      expand: ['tokenomics'],
    });
  });

  it('reads Pact 4: typed interactions, header lists, bodies with their content type, and skips a message', () => {
    const pact = parsePact(fixture('valid/v4-http-and-message.json'));
    expect(pact).toMatchObject({ version: 4, specification: '4.0' });
    const [http, message] = pact.interactions;
    expect(http?.type).toBe('Synchronous/HTTP');
    expect(http?.response).toMatchObject({
      status: 200,
      bodyContentType: 'application/json',
      body: '{"status":"paused"}',
    });
    expect(http?.request?.headers.authorization).toMatch(/^Bearer ey/);
    expect(message).toMatchObject({ type: 'Asynchronous/Messages', request: undefined, response: undefined });
    const deploy = parsePact(fixture('valid/v4-deploy.json')).interactions[0];
    expect(JSON.parse(deploy?.request?.body ?? '')).toMatchObject({ name: 'Solana Momentum Trader' });
    const base64 = parsePact(
      JSON.stringify({
        consumer: { name: 'c' },
        provider: { name: 'p' },
        interactions: [
          {
            type: 'Synchronous/HTTP',
            description: 'binary',
            request: { method: 'GET', path: '/x' },
            response: { status: 200, body: { content: Buffer.from('hi').toString('base64'), encoded: 'base64' } },
          },
        ],
      }),
    );
    expect(base64).toMatchObject({ version: 4, specification: undefined });
    expect(base64.interactions[0]?.response?.body).toBe('hi');
  });

  it.each([
    ['not JSON', '{"interactions": [', /^it is not JSON/],
    ['an array', '[]', /^it is not a JSON object$/],
    ['no interactions', '{"consumer":{"name":"c"},"provider":{"name":"p"}}', /no "interactions" list/],
    ['a message pact', '{"consumer":{"name":"c"},"provider":{"name":"p"},"messages":[]}', /message pact/],
    ['no consumer', '{"provider":{"name":"p"},"interactions":[]}', /names no consumer/],
    [
      'an unknown specification',
      '{"consumer":{"name":"c"},"provider":{"name":"p"},"interactions":[],"metadata":{"pactSpecification":{"version":"9.0"}}}',
      /states Pact specification "9\.0"/,
    ],
    [
      'an interaction without a request',
      '{"consumer":{"name":"c"},"provider":{"name":"p"},"interactions":[{"description":"d","response":{"status":200}}]}',
      /interactions\[0\] has no request object/,
    ],
    [
      'a status that is no HTTP status',
      '{"consumer":{"name":"c"},"provider":{"name":"p"},"interactions":[{"request":{"method":"GET","path":"/"},"response":{"status":1000}}]}',
      /interactions\[0\]\.response\.status is not an HTTP status/,
    ],
  ])('refuses %s in one line', (_name, text, message) => {
    expect(() => parsePact(text)).toThrow(PactFileError);
    expect(() => parsePact(text)).toThrow(message);
    try {
      parsePact(text);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('\n');
    }
  });
});

describe('parsePact on a pact nesting past the kit-wide depth bound', () => {
  it('is a PactFileError naming the bound (a body 2,000,000 levels deep), before anything walks it', () => {
    const pact = JSON.parse(fixture('valid/v2-get-agent.json'));
    pact.interactions[0].response.body = 'DEEP';
    const text = JSON.stringify(pact).replace('"DEEP"', `${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}`);
    expect(() => parsePact(text)).toThrow(new PactFileError('it nests arrays and objects deeper than 72 levels'));
  });
});

describe('parsePact on a pact stating more matching rules than pact verify reads', () => {
  it('is a PactFileError naming the place and the bound (10,001 rules on one response)', () => {
    const body: Record<string, unknown> = {};
    for (let index = 0; index <= 10_000; index += 1) body[`$.x${index}`] = { matchers: [{ match: 'type' }] };
    const text = JSON.stringify({
      consumer: { name: 'web' },
      provider: { name: 'agent-registry' },
      interactions: [
        {
          description: 'd',
          request: { method: 'GET', path: '/v1/agents/a' },
          response: { status: 200, matchingRules: { body } },
        },
      ],
      metadata: { pactSpecification: { version: '3.0.0' } },
    });
    expect(() => parsePact(text)).toThrow(PactFileError);
    expect(() => parsePact(text)).toThrow(
      /^interactions\[0\]\.response\.matchingRules states 10001 matching rules, more than the 10000/,
    );
  });
});
