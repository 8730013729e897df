// The read-only guard counts the independent reasons a correct server has to refuse a POST, and stops those with one.
import { describe, expect, test } from 'vitest';
import { assertReadOnlySafe, guardsOf, type GuardedRequest } from '../../contract-tests/read-only-guard.ts';
import { requestExamples } from '../../verifier-client/requests/spec-schemas.ts';

const known = 'agt_existing';
const deployExample = JSON.stringify(requestExamples('deployAgent')[0]);
const taskExample = JSON.stringify(requestExamples('executeAgentTask')[0]);

function post(operationId: string, path: string, body: string, validCredentials: boolean): GuardedRequest {
  return { operationId, method: 'POST', path, validCredentials, contentType: 'application/json', body };
}

describe('guardsOf', () => {
  test.each([
    ['a valid deploy', { given: post('deployAgent', '/v1/agents/deploy', deployExample, true), want: [] }],
    [
      'a valid deploy with bad credentials',
      { given: post('deployAgent', '/v1/agents/deploy', deployExample, false), want: ['credentials'] },
    ],
    [
      'an invalid deploy with bad credentials',
      { given: post('deployAgent', '/v1/agents/deploy', '{}', false), want: ['credentials', 'validation'] },
    ],
    [
      'a deploy sent as text/plain',
      {
        given: { ...post('deployAgent', '/v1/agents/deploy', deployExample, true), contentType: 'text/plain' },
        want: ['validation'],
      },
    ],
    [
      'a valid task for the known agent',
      { given: post('executeAgentTask', `/v1/agents/${known}/execute`, taskExample, true), want: [] },
    ],
    [
      'a valid task for an unknown agent',
      { given: post('executeAgentTask', '/v1/agents/agt_nobody/execute', taskExample, true), want: ['unknown-agent'] },
    ],
    [
      'a valid task for an agentId too long to exist',
      {
        given: post('executeAgentTask', `/v1/agents/${'a'.repeat(129)}/execute`, taskExample, true),
        want: ['validation', 'unknown-agent'],
      },
    ],
    [
      'a valid task for an empty agentId',
      {
        given: post('executeAgentTask', '/v1/agents//execute', taskExample, true),
        want: ['validation', 'unknown-agent'],
      },
    ],
    [
      'a valid task for the known agent, percent-encoded, with a query',
      {
        given: post(
          'executeAgentTask',
          `/v1/agents/${encodeURIComponent(known).replace('_', '%5F')}/execute?x=1`,
          taskExample,
          true,
        ),
        want: [],
      },
    ],
    [
      'an invalid task for an unknown agent with bad credentials',
      {
        given: post('executeAgentTask', '/v1/agents/agt_nobody/execute', '{}', false),
        want: ['credentials', 'validation', 'unknown-agent'],
      },
    ],
  ])('%s', (_name, { given, want }) => {
    expect(guardsOf(given, known)).toEqual(want);
  });
});

describe('assertReadOnlySafe', () => {
  test.each([
    ['bad credentials alone', post('deployAgent', '/v1/agents/deploy', deployExample, false)],
    ['an invalid body alone', post('executeAgentTask', `/v1/agents/${known}/execute`, '{}', true)],
    ['an unknown agent alone', post('executeAgentTask', '/v1/agents/agt_nobody/execute', taskExample, true)],
  ])('refuses a POST that only %s stops', (_name, request) => {
    expect(() => assertReadOnlySafe(request, known)).toThrow(/^suite bug: --read-only would send POST/);
  });

  test('lets a GET and a doubly guarded POST through', () => {
    expect(() =>
      assertReadOnlySafe({ ...post('getAgent', `/v1/agents/${known}`, '', true), method: 'GET' }, known),
    ).not.toThrow();
    expect(() => assertReadOnlySafe(post('deployAgent', '/v1/agents/deploy', '{}', false), known)).not.toThrow();
  });
});
