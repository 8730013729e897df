import { describe, expect, it } from 'vitest';
import { matchRoute, type RouteMatch } from './router.ts';

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
      'GET of the deploy path is a retrieve of the agent "deploy"',
      {
        given: ['GET', '/v1/agents/deploy'],
        want: { kind: 'operation', operationId: 'getAgent', params: { agentId: 'deploy' } },
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
      { given: ['POST', '/v1/agents/agt_1'], want: { kind: 'wrong-method', allow: ['GET'] } },
    ],
    [
      'wrong method on deploy: both templates match',
      { given: ['PUT', '/v1/agents/deploy'], want: { kind: 'wrong-method', allow: ['GET', 'POST'] } },
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
