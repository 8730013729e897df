// The differential check of the fake against Prism serving the same document: Prism is stateless and example-only, so
// it diverges exactly where the README says, and nowhere else. A change in either server shows up here first.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { SpawnedServer } from '../scripts/spawned-server.ts';
import { fakeToken, startPrism } from '../test/contract/contract-runner.ts';
import { startFake } from '../test/robustness/fake-process.ts';
import { runDiff } from './diff-run.ts';

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
    seed: 20261122,
    maxWrites: 1000,
    readOnly: false,
    timeoutMs: 5000,
  });
  const kindsByStep: Record<string, string> = {};
  for (const step of result.steps)
    if (step.divergences.length > 0)
      kindsByStep[step.id] = [...new Set(step.divergences.map((d) => d.kind))].sort().join(' ');
  const retrieve = 'invariant value';
  expect(kindsByStep).toEqual({
    // Every deploy answers the example: the name sent is not echoed and every agentId is the same.
    'deploy/example-2': 'invariant value',
    'deploy/generated-1': 'invariant value',
    'deploy/generated-2': 'invariant value',
    'deploy/generated-3': 'invariant value',
    'deploy/generated-4': 'invariant value',
    // Every retrieve answers the example agent: nothing deployed is retrieved as it was sent.
    'retrieve/example-1': 'invariant',
    'retrieve/example-2': retrieve,
    'retrieve/generated-1': retrieve,
    'retrieve/generated-2': retrieve,
    'retrieve/generated-3': retrieve,
    'retrieve/generated-4': retrieve,
    // Every task submission answers the example's taskId.
    'execute/priority-low': 'invariant',
    'execute/priority-normal': 'invariant',
    'execute/priority-high': 'invariant',
    'execute/generated-1': 'invariant',
    'execute/generated-2': 'invariant',
    'execute/generated-3': 'invariant',
    // Unknown agents exist for Prism.
    'unknown/getAgent': 'status',
    'unknown/executeAgentTask': 'status',
    // Malformed JSON gets no answer; no Content-Type is 400 instead of 415.
    'invalid/deployAgent/malformed-json': 'no-answer',
    'invalid/deployAgent/content-type-missing': 'status',
    'invalid/executeAgentTask/malformed-json': 'no-answer',
    'invalid/executeAgentTask/content-type-missing': 'status',
    // Any bearer token is accepted; a missing or non-Bearer one gets the placeholder challenge "string".
    'auth/getAgent/missing': 'conformance',
    'auth/getAgent/not-bearer': 'conformance',
    'auth/getAgent/malformed': 'status',
    'auth/getAgent/bad-signature': 'status',
    'auth/deployAgent/missing': 'conformance',
    'auth/deployAgent/not-bearer': 'conformance',
    'auth/deployAgent/malformed': 'status',
    'auth/deployAgent/bad-signature': 'status',
  });
  // Where the two differ, the fake is the one that follows the spec (values of two valid enum members excepted).
  expect(result.divergences.filter((d) => d.followsSpec === 'real' || d.followsSpec === 'neither')).toEqual([]);
  expect(result.divergences.find((d) => d.step === 'auth/getAgent/malformed')?.rule).toMatchObject({
    specPointer: '/security',
    origin: 'seed',
  });
}, 120_000);
