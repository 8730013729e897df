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
