// Replaying evidence through a new version of the spec: the base version's examples, the journal of a real fake process
// and the report of a real contract run. What the base accepted and the new version rejects is listed with its reason;
// what was rejected anyway is not a break.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isJsonObject, openapiDocument, type JsonObject, type JsonValue } from '../../spec/index.ts';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { fakeToken, runContract } from '../contract/contract-runner.ts';
import { startFake } from '../robustness/fake-process.ts';
import { examplesOf } from '../../spec-change/example-evidence.ts';
import { journalEvidence } from '../../spec-change/journal-evidence.ts';
import { reportEvidence } from '../../spec-change/report-evidence.ts';
import { replay } from '../../spec-change/traffic-replay.ts';

function at(document: JsonObject, path: string[]): JsonObject {
  let node: JsonValue | undefined = document;
  for (const key of path) node = isJsonObject(node) ? node[key] : undefined;
  if (!isJsonObject(node)) throw new Error(`nothing at ${path.join('/')}`);
  return node;
}

/** The current spec with one edit. */
function head(edit: (document: JsonObject) => void): JsonObject {
  const copy = structuredClone(openapiDocument);
  edit(copy);
  return copy;
}

const withoutPriority = (priority: string) => (document: JsonObject) => {
  at(document, ['components', 'schemas', 'TaskPriority']).enum = ['low', 'normal', 'high'].filter(
    (p) => p !== priority,
  );
};

describe('the base version’s examples', () => {
  test('each is accepted by its own version, so nothing is listed without a change', () => {
    const result = replay(openapiDocument, openapiDocument, examplesOf(openapiDocument));
    expect(result.counts.example).toBeGreaterThan(20);
    expect(result.findings).toEqual([]);
  });

  test('a request example and a response example the new version rejects are listed, with the reason', () => {
    const newer = head((document) => {
      withoutPriority('high')(document);
      at(document, ['components', 'schemas', 'AgentStatus']).enum = ['active', 'deprecated'];
    });
    const findings = replay(openapiDocument, newer, examplesOf(openapiDocument)).findings.map((f) => [
      f.where,
      f.part,
      f.verdict,
      f.reasons,
    ]);
    expect(findings).toEqual([
      [
        '/components/examples/AgentPaused',
        'response',
        'newly-rejected',
        ['/status must be one of active, deprecated (/components/schemas/AgentStatus/enum)'],
      ],
      [
        '/components/examples/ExecuteRequestAnalysis',
        'request',
        'newly-rejected',
        ['/priority must be one of low, normal'],
      ],
    ]);
  });
});

describe('a real fake process’s journal', () => {
  let fake: SpawnedServer | undefined;
  beforeAll(async () => {
    fake = await startFake();
  }, 60_000);
  afterAll(async () => {
    await fake?.stop();
  });

  test('the calls a frontend made that the new version would refuse, and the answers it no longer documents', async () => {
    if (!fake) throw new Error('the fake did not start');
    const authorization = `Bearer ${await fakeToken()}`;
    const send = (method: string, path: string, body?: JsonValue): Promise<Response> =>
      fetch(fake?.baseUrl + path, {
        method,
        headers: { authorization, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const deployed = await send('POST', '/v1/agents/deploy', {
      name: 'A name of sixty characters, longer than the new limit of 50',
      category: 'nft',
      model: 'gpt-4',
      initialSupply: 100,
    });
    const { agentId } = (await deployed.json()) as { agentId: string };
    expect((await send('POST', `/v1/agents/${agentId}/execute`, { task: 'low one', priority: 'low' })).status).toBe(
      200,
    );
    expect((await send('POST', `/v1/agents/${agentId}/execute`, { task: 'high one', priority: 'high' })).status).toBe(
      200,
    );
    // Refused by the fake already: the new version refusing it too breaks nothing.
    expect((await send('POST', `/v1/agents/${agentId}/execute`, { task: '', priority: 'low' })).status).toBe(400);
    expect((await send('GET', '/v1/agents/agt_nobody')).status).toBe(404);
    const journal: unknown = await (await fetch(`${fake.baseUrl}/__mock/journal`)).json();

    const newer = head((document) => {
      withoutPriority('low')(document);
      at(document, ['components', 'schemas', 'DeployRequest', 'properties', 'name']).maxLength = 50;
      delete at(document, ['paths', '/v1/agents/{agentId}', 'get', 'responses'])['404'];
    });
    const evidence = journalEvidence(journal, openapiDocument);
    expect(evidence).toHaveLength(5);
    const result = replay(openapiDocument, newer, evidence);
    expect(
      result.findings.map((f) => [f.method, f.path.replace(agentId, ':id'), f.part, f.verdict, f.reasons]),
    ).toEqual([
      ['POST', '/v1/agents/deploy', 'request', 'newly-rejected', ['/name must NOT have more than 50 characters']],
      ['POST', '/v1/agents/:id/execute', 'request', 'newly-rejected', ['/priority must be one of normal, high']],
      ['GET', '/v1/agents/agt_nobody', 'response', 'newly-rejected', ['status 404 is not documented']],
    ]);
    expect(replay(openapiDocument, openapiDocument, evidence).findings).toEqual([]);
  });
});

describe('a real contract run’s --json report', () => {
  let fake: SpawnedServer | undefined;
  beforeAll(async () => {
    fake = await startFake();
  }, 60_000);
  afterAll(async () => {
    await fake?.stop();
  });

  test('its exchanges are replayed: accepted requests and every answer, with the check they come from', async () => {
    if (!fake) throw new Error('the fake did not start');
    const run = await runContract({ API_BASE_URL: fake.baseUrl, API_TOKEN: await fakeToken() }, [
      '--runs',
      '3',
      '--seed',
      '5',
    ]);
    expect(run.code, run.stdout).toBe(0);
    const evidence = reportEvidence(run.report, openapiDocument);
    expect(evidence.length).toBeGreaterThan(50);
    // Passing generated cases are in the report too (3 runs of each property), not only failures.
    const generatedDeploys = evidence.filter((e) => e.where.startsWith('generated/deployAgent/valid #'));
    expect(generatedDeploys.filter((e) => e.method === 'POST').length).toBe(3);
    expect(replay(openapiDocument, openapiDocument, evidence).findings).toEqual([]);

    const newer = head((document) => {
      withoutPriority('low')(document);
      // Servers written against the base version do not send it.
      const agent = at(document, ['components', 'schemas', 'Agent']);
      at(agent, ['properties']).rating = { type: 'number' };
      agent.required = [...(Array.isArray(agent.required) ? agent.required : []), 'rating'];
    });
    const findings = replay(openapiDocument, newer, evidence).findings.filter((f) => f.verdict === 'newly-rejected');
    const lowTask = findings.find(
      (f) => f.part === 'request' && f.where.startsWith('behaviour/executeAgentTask/priorities'),
    );
    expect(lowTask?.reasons).toEqual(['/priority must be one of normal, high']);
    const agents = findings.filter((f) => f.part === 'response' && f.method === 'GET' && f.status === 200);
    expect(agents.length).toBeGreaterThan(0);
    expect(agents.every((f) => f.reasons.includes('/rating is required (/components/schemas/Agent/required)'))).toBe(
      true,
    );
    // Requests the server refused (auth, validation) are not replayed as breaks.
    expect(findings.filter((f) => f.part === 'request' && f.where.startsWith('request-validation/'))).toEqual([]);
  }, 120_000);
});
