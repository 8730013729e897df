import { describe, expect, it } from 'vitest';
import { createRouter, matchRoute, type RouteMatch } from './router.ts';

describe('matchRoute', () => {
  const cases: [string, { given: [string, string]; want: RouteMatch }][] = [
    [
      'retrieve',
      {
        given: ['GET', '/v1/agents/agt_1'],
        want: { kind: 'operation', operationId: 'getAgent', params: { agentId: 'agt_1' } },
      },
    ],
    [
      'deploy',
      { given: ['POST', '/v1/agents/deploy'], want: { kind: 'operation', operationId: 'deployAgent', params: {} } },
    ],
    [
      'execute',
      {
        given: ['POST', '/v1/agents/agt_1/execute'],
        want: { kind: 'operation', operationId: 'executeAgentTask', params: { agentId: 'agt_1' } },
      },
    ],
    [
      'the concrete deploy path wins over the template: GET there is 405, not a retrieve of the agent "deploy"',
      { given: ['GET', '/v1/agents/deploy'], want: { kind: 'wrong-method', allow: ['POST'] } },
    ],
    [
      'HEAD of the deploy path is 405 too',
      { given: ['HEAD', '/v1/agents/deploy'], want: { kind: 'wrong-method', allow: ['POST'] } },
    ],
    [
      'OPTIONS of the deploy path advertises POST only',
      { given: ['OPTIONS', '/v1/agents/deploy'], want: { kind: 'wrong-method', allow: ['POST'] } },
    ],
    [
      'HEAD is served wherever GET is',
      {
        given: ['HEAD', '/v1/agents/agt_1'],
        want: { kind: 'operation', operationId: 'getAgent', params: { agentId: 'agt_1' } },
      },
    ],
    [
      'ids stay percent-encoded',
      {
        given: ['GET', '/v1/agents/a%2Fb'],
        want: { kind: 'operation', operationId: 'getAgent', params: { agentId: 'a%2Fb' } },
      },
    ],
    [
      'wrong method on an agent',
      { given: ['POST', '/v1/agents/agt_1'], want: { kind: 'wrong-method', allow: ['GET', 'HEAD'] } },
    ],
    [
      'wrong method on deploy: only the concrete path counts',
      { given: ['PUT', '/v1/agents/deploy'], want: { kind: 'wrong-method', allow: ['POST'] } },
    ],
    [
      'wrong method on execute',
      { given: ['GET', '/v1/agents/agt_1/execute'], want: { kind: 'wrong-method', allow: ['POST'] } },
    ],
    ['an empty id matches nothing', { given: ['GET', '/v1/agents/'], want: { kind: 'none' } }],
    ['a trailing slash matches nothing', { given: ['POST', '/v1/agents/deploy/'], want: { kind: 'none' } }],
    ['another version', { given: ['GET', '/v2/agents/agt_1'], want: { kind: 'none' } }],
    ['the root', { given: ['GET', '/'], want: { kind: 'none' } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(matchRoute(...given)).toEqual(want);
  });
});

describe('createRouter with text around a parameter', () => {
  // Templates of a fixture spec, not the API's: the router reads them with spec/'s one path-template matcher, so the
  // fake, spec-change and the proxy agree on which operation a path is.
  const router = createRouter([
    { method: 'GET', path: '/files/{name}.json', target: 'json' },
    { method: 'GET', path: '/files/{name}', target: 'any' },
    { method: 'GET', path: '/v{major}/items/{a}-{b}', target: 'pair' },
  ]);

  it.each([
    ['/files/a.json', { kind: 'route', target: 'json', params: { name: 'a' } }],
    ['/files/a.json.json', { kind: 'route', target: 'json', params: { name: 'a.json' } }],
    ['/files/.json', { kind: 'route', target: 'any', params: { name: '.json' } }],
    ['/files/a', { kind: 'route', target: 'any', params: { name: 'a' } }],
    ['/v2/items/x-y-z', { kind: 'route', target: 'pair', params: { major: '2', a: 'x', b: 'y-z' } }],
    ['/w2/items/x-y', { kind: 'none' }],
  ])('%s', (path, want) => {
    expect(router.match('GET', path)).toEqual(want);
  });
});
