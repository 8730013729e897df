// The differential check of the fake against Prism serving the same document: Prism is stateless and example-only, so
// it diverges exactly where the README says, and nowhere else. A change in either server shows up here first.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { fakeToken, startPrism } from '../contract/contract-runner.ts';
import { startFake } from '../robustness/fake-process.ts';
import { getAtPointer, isJsonObject, openapiDocument, operations, type JsonObject } from '../../spec/index.ts';
import { runDiff } from '../../differential/diff-run.ts';
import { buildScript, defaultScriptOptions, type DiffStep } from '../../differential/diff-script.ts';

const seed = 20261122;

function example(name: string): JsonObject {
  const value = getAtPointer(openapiDocument, `/components/examples/${name}/value`);
  if (!isJsonObject(value)) throw new Error(`no example ${name}`);
  return value;
}

/**
 * Where Prism must diverge from the fake, step by step, derived from what Prism is: it answers every call with the
 * spec's first example (the trading agent, its deploy result, one queued task), keeps no state, accepts any bearer token.
 */
function expectedOfPrism(script: DiffStep[]): Record<string, string> {
  const agent = example('AgentTrading');
  const deployed = example('DeployResultTrading');
  const sent = (deployStep: string): JsonObject => script.find((s) => s.id === deployStep)?.sent ?? {};
  // The example agent's pinned values differ from what was deployed: category and model are enums, so compared.
  const pinnedDiffer = (deployStep: string): boolean =>
    sent(deployStep).category !== agent.category || sent(deployStep).model !== agent.model;
  const expected: Record<string, string> = {};
  for (const step of script) {
    const [family, name] = step.id.split('/');
    const deployStep = `deploy/${name}`;
    if (family === 'deploy' && step.id !== 'deploy/example-1')
      // Every deploy answers the example's agentId (ids not unique); the name it echoes is the example's.
      expected[step.id] = step.sent?.name === deployed.name ? 'invariant' : 'invariant value';
    // Nothing deployed is retrieved as it was sent.
    if (family === 'retrieve') expected[step.id] = pinnedDiffer(deployStep) ? 'invariant value' : 'invariant';
    if (family === 'again' && pinnedDiffer(deployStep)) expected[step.id] = 'value';
    // Every task answers the example's taskId.
    if (family === 'execute' && step.id !== 'execute/no-priority') expected[step.id] = 'invariant';
  }
  return {
    ...expected,
    // Unknown agents exist for Prism.
    'unknown/getAgent': 'status',
    'unknown/executeAgentTask': 'status',
    // Malformed JSON gets no answer; no Content-Type is 400 instead of 415.
    'invalid/deployAgent/malformed-json': 'no-answer',
    'invalid/deployAgent/content-type-missing': 'status',
    'invalid/executeAgentTask/malformed-json': 'no-answer',
    'invalid/executeAgentTask/content-type-missing': 'status',
    // Any bearer token is accepted; a missing or non-Bearer one gets the placeholder challenge "string".
    ...Object.fromEntries(
      // Every operation of the spec gets the bad credentials (with a request that would succeed with the token).
      [...operations.keys()].flatMap((operation) => [
        [`auth/${operation}/missing`, 'conformance'],
        [`auth/${operation}/not-bearer`, 'conformance'],
        ...['malformed', 'bad-signature', 'signature-removed', 'alg-none', 'alg-switched', 'payload-altered'].map(
          (variant) => [`auth/${operation}/${variant}`, 'status'],
        ),
      ]),
    ),
  };
}

let fake: SpawnedServer | undefined;
let prism: SpawnedServer | undefined;

beforeAll(async () => {
  [fake, prism] = await Promise.all([startFake(), startPrism()]);
}, 90_000);

afterAll(async () => {
  await Promise.all([fake?.stop(), prism?.stop()]);
});

test('the documented divergences of Prism, step by step, and no others', async () => {
  if (!fake || !prism) throw new Error('a server did not start');
  const token = await fakeToken();
  const target = (baseUrl: string) => ({ baseUrl, token, tokenLabel: '<API_TOKEN>', agentId: undefined });
  // Prism never answers a malformed JSON body: 5 s bounds the two steps that wait for it.
  const result = await runDiff({
    fake: target(fake.baseUrl),
    real: target(prism.baseUrl),
    seed,
    maxWrites: 1000,
    readOnly: false,
    timeoutMs: 5000,
  });
  const kindsByStep: Record<string, string> = {};
  for (const step of result.steps)
    if (step.divergences.length > 0)
      kindsByStep[step.id] = [...new Set(step.divergences.map((d) => d.kind))].sort().join(' ');
  expect(kindsByStep).toEqual(expectedOfPrism(buildScript({ seed, ...defaultScriptOptions, existingAgent: false })));
  // Where the two differ, the fake is the one that follows the spec (values of two valid enum members excepted).
  expect(result.divergences.filter((d) => d.followsSpec === 'real' || d.followsSpec === 'neither')).toEqual([]);
  expect(result.divergences.find((d) => d.step === 'auth/getAgent/malformed')?.rule).toMatchObject({
    specPointer: '/security',
    origin: 'seed',
  });
}, 120_000);
