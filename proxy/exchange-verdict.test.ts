// The verdict on exchanges given directly, without a socket: each row is what the app sent and the server answered (a
// row of several exchanges is a conversation, judged in order by one Conversation), and the findings of its last one.
import { describe, expect, it } from 'vitest';
import { documentedExamples } from '../mocks/core/documented-response.ts';
import { getAtPointer, openapiDocument, type JsonValue, type OperationId } from '../spec/index.ts';
import { Conversation } from './conversation.ts';
import { judgeExchange, type SeenExchange } from './exchange-verdict.ts';

const at = new Date(Date.UTC(2026, 11, 2));
/** A bearer credential of the JWT form the spec asks for (the proxy judges its form, never its signature). */
const bearer = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ2ZXJkaWN0In0.c2lnbmF0dXJl';

const example = (operationId: OperationId, status: number, name?: string): JsonValue => {
  const found = documentedExamples(operationId, status).find((e) => name === undefined || e.name === name);
  if (!found) throw new Error(`no example ${name ?? ''} of ${operationId} ${status}`);
  return found.value;
};
const deployRequest = getAtPointer(openapiDocument, '/components/examples/DeployRequestTrading/value');
const deployed = example('deployAgent', 201) as { agentId: string };
const tradingAgent = example('getAgent', 200, 'tradingAgent') as Record<string, JsonValue> & { tokenomics: object };
/** The agent the deploy made, as a read-back agreeing with it answers it (the example's price moved since). */
const retrieved = { ...tradingAgent, tokenomics: { ...tradingAgent.tokenomics, price: 0.05 } };

function exchange(
  method: string,
  target: string,
  answer: { status: number; body?: JsonValue; type?: string; headers?: Record<string, string> } | undefined,
  request: { body?: JsonValue; authorization?: string | null } = {},
): SeenExchange {
  const authorization = request.authorization === undefined ? bearer : request.authorization;
  return {
    method,
    target,
    requestHeaders: {
      ...(authorization === null ? {} : { authorization }),
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    requestBody: request.body === undefined ? undefined : JSON.stringify(request.body),
    answer: answer && {
      status: answer.status,
      headers: {
        ...(answer.body === undefined ? {} : { 'content-type': answer.type ?? 'application/json' }),
        ...answer.headers,
      },
      body: answer.body === undefined ? undefined : JSON.stringify(answer.body),
    },
    at,
  };
}

const getAgent = (status: number, body: JsonValue, type?: string) =>
  exchange('GET', `/v1/agents/${deployed.agentId}`, { status, body, ...(type && { type }) });
const deploy = exchange('POST', '/v1/agents/deploy', { status: 201, body: deployed }, { body: deployRequest });
const problem = 'application/problem+json';

interface Row {
  name: string;
  /** Judged in order by one conversation; the last one's verdict is the row's. */
  exchanges: SeenExchange[];
  operationId: OperationId | null;
  judged?: boolean;
  /** `part rule pointer` of each violation of the last exchange. */
  found: string[];
}

const rows: Row[] = [
  {
    name: 'no answer (the upstream failed)',
    exchanges: [getAgent(0, null)].map((e) => ({ ...e, answer: undefined })),
    operationId: null,
    judged: false,
    found: [],
  },
  {
    name: 'a valid retrieve answered with its example',
    exchanges: [getAgent(200, retrieved)],
    operationId: 'getAgent',
    found: [],
  },
  {
    name: 'a CORS preflight',
    exchanges: [exchange('OPTIONS', '/v1/agents/deploy', { status: 204 })],
    operationId: null,
    found: [],
  },
  {
    name: 'a path outside the API',
    exchanges: [exchange('GET', '/health', { status: 200, body: {} })],
    operationId: null,
    found: [],
  },
  {
    name: 'a path no operation has',
    exchanges: [exchange('GET', '/v1/nothing', { status: 404 })],
    operationId: null,
    found: ['request operation-documented '],
  },
  {
    name: "the app's missing credential, answered 401",
    exchanges: [
      exchange(
        'GET',
        `/v1/agents/${deployed.agentId}`,
        {
          status: 401,
          body: example('getAgent', 401, 'missingToken'),
          type: problem,
          headers: { 'www-authenticate': 'Bearer' },
        },
        { authorization: null },
      ),
    ],
    operationId: 'getAgent',
    found: ['request request-credentials '],
  },
  {
    name: 'a missing credential accepted',
    exchanges: [
      exchange('GET', `/v1/agents/${deployed.agentId}`, { status: 200, body: retrieved }, { authorization: null }),
    ],
    operationId: 'getAgent',
    found: ['request request-credentials ', 'response rejects-unauthenticated '],
  },
  {
    name: 'a server error',
    exchanges: [getAgent(500, example('getAgent', 500), problem)],
    operationId: 'getAgent',
    found: ['response not-a-server-error '],
  },
  {
    name: 'an answer breaking the schema',
    exchanges: [getAgent(200, { ...retrieved, status: 'asleep' })],
    operationId: 'getAgent',
    found: ['response body-schema /status'],
  },
  {
    name: 'an answer too large to check, judged by its status alone',
    exchanges: [getAgent(200, null)].map((e) => ({ ...e, answer: e.answer && { ...e.answer, body: undefined } })),
    operationId: 'getAgent',
    found: [],
  },
  {
    name: 'an answer naming another agent than the path',
    exchanges: [getAgent(200, { ...retrieved, agentId: 'agt_someoneElse1' })],
    operationId: 'getAgent',
    found: ['response answer-echoes-path-parameter /agentId'],
  },
  {
    name: 'a deploy whose read-back is not found',
    exchanges: [deploy, getAgent(404, example('getAgent', 404), problem)],
    operationId: 'getAgent',
    found: ['response deployed-agent-retrievable '],
  },
  {
    name: 'a deploy read back in agreement',
    exchanges: [deploy, getAgent(200, retrieved)],
    operationId: 'getAgent',
    found: [],
  },
  {
    name: 'a deploy whose read-back answers another name',
    exchanges: [deploy, getAgent(200, { ...retrieved, name: 'Another Name' })],
    operationId: 'getAgent',
    found: ['response retrieve-agrees-with-deploy /name'],
  },
  {
    name: 'a 404 to a retrieve with no deploy before it (only the server knows its agents)',
    exchanges: [getAgent(404, example('getAgent', 404), problem)],
    operationId: 'getAgent',
    found: [],
  },
];

describe('judgeExchange', () => {
  it.each(rows)('$name', ({ exchanges, operationId, judged = true, found }) => {
    const conversation = new Conversation();
    const verdicts = exchanges.map((seen) => judgeExchange(seen, conversation));
    const last = verdicts.at(-1);
    expect(last?.judged).toBe(judged);
    expect(last?.operationId).toBe(operationId);
    expect(last?.violations.map((v) => `${v.part} ${v.rule} ${v.pointer}`)).toEqual(found);
  });

  it('judges the path without its query: the query is no part of the path parameter the answer must echo', () => {
    const queried = { ...getAgent(200, retrieved), target: `/v1/agents/${deployed.agentId}?fields=name` };
    const verdict = judgeExchange(queried, new Conversation());
    expect({ operationId: verdict.operationId, violations: verdict.violations }).toEqual({
      operationId: 'getAgent',
      violations: [],
    });
  });

  it('names the time it is given, never the clock, in a finding across exchanges', () => {
    const conversation = new Conversation();
    judgeExchange(deploy, conversation);
    const [finding] = judgeExchange(getAgent(404, example('getAgent', 404), problem), conversation).violations;
    expect(finding?.exchanges?.map((ref) => ref.at)).toEqual([at.toISOString(), at.toISOString()]);
  });
});
