// What each stage of the fake's request path costs, in CPU microseconds per request, measured in this process without
// sockets (process.cpuUsage counts only this process's CPU time, so a busy machine distorts it far less than req/s):
// the listener's guards, the core per operation, and writing the response. node:http's own parsing and socket writes
// are what the throughput section's bare server measures.
// Run alone: `node benchmarks/probes/request-path.ts [--iterations N]`; `npm run bench -- --sections path` runs it too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadavg } from 'node:os';
import {
  getAtPointer,
  getOperation,
  parameterReader,
  validateRequestBody,
  type JsonValue,
  type WithDefaults,
} from '../../spec/index.ts';
import { primaryCreation } from '../../verifier-client/requests/linked-operations.ts';
import { fillPath } from '../../verifier-client/requests/path-parameters.ts';
import { createAuthenticator, mintToken } from '../../mocks/core/request/auth.ts';
import { answerSync, createMockCore, type MockCore } from '../../mocks/assembly/mock-core.ts';
import { recordAnswer } from '../../mocks/assembly/answer-recording.ts';
import { send } from '../../mocks/http/http-send.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { jsonValueResponse, type MockRequest, type MockResponse } from '../../mocks/core/mock-http.ts';
import { readJsonBody } from '../../mocks/core/request/request-body.ts';
import { exchangeOf, hostGuard, urlLengthGuard } from '../../mocks/http/request-guards.ts';
import { createRandom } from '../../mocks/domain/random.ts';
import { matchRoute } from '../../mocks/core/router.ts';
import { deployValidated } from '../../mocks/state/store/store.ts';
import { fmt } from '../load.ts';
import { deployBody, requestBody } from '../servers.ts';

/** One stage and its cost. */
export interface StageCost {
  stage: string;
  microseconds: number;
}

/** CPU microseconds per call of `run`, the median of 5 batches of `iterations` (after one warm-up batch). */
async function cost(iterations: number, run: (index: number) => unknown): Promise<number> {
  const batches: number[] = [];
  for (let batch = 0; batch < 6; batch += 1) {
    const before = process.cpuUsage();
    for (let index = 0; index < iterations; index += 1) {
      const result = run(index);
      if (result instanceof Promise) await result;
    }
    const used = process.cpuUsage(before);
    if (batch > 0) batches.push((used.user + used.system) / iterations);
  }
  batches.sort((a, b) => a - b);
  return batches[2] ?? Number.NaN;
}

/**
 * What keeping deployed agents costs the process, per deploy: `count` deploys through a fresh core whose store keeps
 * every agent, and the same deploys through a fresh core whose store is reset every 100 deploys (its agents die young,
 * as a bare server's objects do). Whole requests, so the young generation fills with each request's garbage as it does
 * under load and the kept agents are copied and promoted as they are then. process.cpuUsage counts V8's helper threads
 * too: the difference is what the kept agents cost (the Map, the heap growing, the garbage collector copying and
 * marking them). The median of three alternated pairs.
 */
async function keptAgentCosts(
  headers: Record<string, string>,
  count: number,
): Promise<{ kept: number; forgotten: number }> {
  const method = getOperation(creator).method;
  const path = fillPath(creator, {});
  const run = async (resetEvery: number): Promise<number> => {
    const core = createMockCore({ logger: silentLogger });
    await request(core, method, path, headers, deployBody);
    const before = process.cpuUsage();
    for (let index = 1; index <= count; index += 1) {
      const answer = request(core, method, path, headers, deployBody);
      if (answer instanceof Promise) await answer;
      if (index % resetEvery === 0) core.store.reset();
    }
    const used = process.cpuUsage(before);
    return (used.user + used.system) / count;
  };
  const kept: number[] = [];
  const forgotten: number[] = [];
  for (let pair = 0; pair < 3; pair += 1) {
    // Alternated, so whatever the machine does meanwhile falls on both.
    if (pair % 2 === 0) kept.push(await run(Number.POSITIVE_INFINITY));
    forgotten.push(await run(100));
    if (pair % 2 === 1) kept.push(await run(Number.POSITIVE_INFINITY));
  }
  const middle = (values: number[]): number => [...values].sort((a, b) => a - b)[1] ?? Number.NaN;
  return { kept: middle(kept), forgotten: middle(forgotten) };
}

/** A request node:http would hand the listener: what the guards read. */
function incoming(path: string, headers: Record<string, string>): IncomingMessage {
  const rawHeaders = Object.entries(headers).flat();
  return { url: path, method: 'GET', headers, rawHeaders, headersDistinct: {} } as unknown as IncomingMessage;
}

/** A response that keeps nothing: what `send` costs before node writes to the socket. */
function sink(): ServerResponse {
  return { destroyed: false, headersSent: false, writeHead: () => {}, end: () => {} } as unknown as ServerResponse;
}

// The operations come from the spec's links: the creating write (a deploy), the GET that reads it back, a submission.
const primary = primaryCreation();
const creator = primary.creator;
const readBack = primary.readBack;
const submission = primary.submissions[0] ?? creator;

/** An operation's stage name: `core: POST /v1/agents/deploy`. */
const coreStage = (op: typeof readBack): string => `core: ${getOperation(op).method} ${getOperation(op).path}`;

/**
 * One request through the core as the node:http listener sends it: the synchronous answer when there is one (no
 * promise, no microtask), else the promise `handle` would give.
 */
const request = (
  core: MockCore,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): MockResponse | Promise<MockResponse> => {
  const mockRequest: MockRequest = {
    method,
    path,
    query: '',
    headers,
    body: body === undefined ? null : new TextEncoder().encode(body),
  };
  return core[answerSync]?.(mockRequest) ?? core.handle(mockRequest);
};

/**
 * The parts of the core's answers, one at a time (what the core rows above add up to, besides awaits and GC of the
 * whole): routing, auth, the parameters, the body's reading and validation, the store, the answer's JSON, the
 * journal and coverage.
 */
async function coreStageCosts(iterations: number, core: MockCore, authorization: string): Promise<StageCost[]> {
  const authenticator = createAuthenticator();
  await authenticator.authenticate(authorization);
  const headers = { authorization, 'content-type': 'application/json' };
  const deploy: MockRequest = {
    method: getOperation(creator).method,
    path: fillPath(creator, {}),
    query: '',
    headers,
    body: new TextEncoder().encode(deployBody),
  };
  const parsed = readJsonBody(deploy);
  const checked = parsed.ok ? validateRequestBody(creator, parsed.value, { clone: false }) : undefined;
  if (!checked?.ok) throw new Error('the spec example of a deploy body does not pass the fake');
  // The creator of the spec's links is the store's deploy: its validated body is a DeployRequest with defaults.
  const body = checked.value as WithDefaults<'DeployRequest'>;
  const result = core.store[deployValidated](body, 'bench');
  const answer = jsonValueResponse(201, result);
  const trace = { operationId: creator, bodyText: deployBody };
  const started = performance.now();
  const few = Math.max(1, Math.floor(iterations / 4));
  const random = createRandom(7);
  const keeping = await keptAgentCosts({ ...headers, host: '127.0.0.1:4010' }, iterations * 2);
  return [
    {
      stage: 'core · route (`mocks/core/router.ts`)',
      microseconds: await cost(iterations, () => matchRoute('POST', deploy.path)),
    },
    {
      stage: 'core · auth, the last accepted header again (`mocks/core/request/auth.ts`)',
      microseconds: await cost(iterations, () => authenticator.remembered(authorization)),
    },
    {
      stage:
        'core · parameters: every declared one read, decoded and validated (`spec/parameters/parameter-reader.ts`)',
      microseconds: await cost(iterations, () =>
        parameterReader(readBack)({ path: { [primary.parameter]: result.agentId }, query: '', headers: {} }),
      ),
    },
    {
      stage:
        'core · deploy body read: media type, UTF-8, depth, JSON.parse, I-JSON (`mocks/core/request/request-body.ts`)',
      microseconds: await cost(iterations, () => readJsonBody(deploy)),
    },
    {
      stage: 'core · deploy body validation: ajv, defaults in place (`spec/validators/request-validators.ts`)',
      microseconds: await cost(iterations, () => validateRequestBody(creator, body, { clone: false })),
    },
    {
      stage: 'core · store: a new agent (`mocks/state/store/`; grows with the store)',
      microseconds: await cost(few, () => core.store[deployValidated](body, 'bench')),
    },
    {
      stage: 'core · store: agent id and token address drawn (`mocks/domain/random.ts`)',
      microseconds: await cost(iterations, () => random.string(16) + random.base58(44)),
    },
    {
      stage: `core: POST /v1/agents/deploy, ${fmt(iterations * 2)} into a fresh core that keeps every agent (all threads)`,
      microseconds: keeping.kept,
    },
    {
      stage: 'core: the same deploys, the store reset every 100 (its agents die young)',
      microseconds: keeping.forgotten,
    },
    {
      stage: 'core · deploy answer JSON (`mocks/core/mock-http.ts`)',
      microseconds: await cost(iterations, () => jsonValueResponse(201, result)),
    },
    {
      stage:
        'core · journal line, coverage count and pact exchange (`mocks/assembly/answer-recording.ts` recordAnswer)',
      microseconds: await cost(iterations, () =>
        recordAnswer(
          { coverage: core.coverage, journal: core.journal, clock: core.clock, pact: core.pact, store: core.store },
          deploy,
          answer,
          trace,
          started,
        ),
      ),
    },
  ];
}

/**
 * Every stage's cost, on a fresh in-memory core (fresh for deploys too: the store grows by one agent per deploy).
 * @example const stages = await requestPathCosts(20_000); console.log(requestPathTable(stages));
 */
export async function requestPathCosts(iterations: number): Promise<StageCost[]> {
  const core = createMockCore({ logger: silentLogger });
  const headers = {
    host: '127.0.0.1:4010',
    authorization: `Bearer ${await mintToken()}`,
    'content-type': 'application/json',
  };
  const deployPath = fillPath(creator, {});
  const deployed = await request(core, getOperation(creator).method, deployPath, headers, deployBody);
  // JSON.parse gives JSON values only; the id is wherever the spec's link says the answer carries it.
  const values = { [primary.parameter]: String(getAtPointer(JSON.parse(deployed.body) as JsonValue, primary.field)) };
  const getPath = fillPath(readBack, values);
  const executeBody = requestBody(submission);
  const guards = [urlLengthGuard, hostGuard([])];
  const req = incoming(getPath, headers);
  const answer = await request(core, 'GET', getPath, headers);
  return [
    {
      stage: 'listener guards (exchange, URL limit, Host allow-list)',
      // Sub-microsecond stages run 10 times as often, so a batch lasts long enough to be timed.
      microseconds: await cost(iterations * 10, () => {
        const exchange = exchangeOf(req, sink(), false);
        for (const guard of guards) guard(exchange);
      }),
    },
    {
      stage: coreStage(readBack),
      microseconds: await cost(iterations, () => request(core, getOperation(readBack).method, getPath, headers)),
    },
    {
      stage: coreStage(creator),
      microseconds: await cost(Math.max(1, Math.floor(iterations / 4)), () =>
        request(core, getOperation(creator).method, deployPath, headers, deployBody),
      ),
    },
    {
      stage: coreStage(submission),
      microseconds: await cost(Math.max(1, Math.floor(iterations / 4)), () =>
        request(core, getOperation(submission).method, fillPath(submission, values), headers, executeBody),
      ),
    },
    {
      stage: 'send (headers and length; node writes the socket after)',
      microseconds: await cost(iterations * 10, () => send(sink(), { ...answer, headers: { ...answer.headers } })),
    },
    ...(await coreStageCosts(iterations, createMockCore({ logger: silentLogger }), headers.authorization)),
  ];
}

/** The stages as a Markdown table. */
export function requestPathTable(stages: StageCost[]): string {
  return [
    '| stage of the request path | CPU µs per request |',
    '|---|---|',
    ...stages.map((stage) => `| ${stage.stage} | ${fmt(stage.microseconds, 2)} |`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--iterations');
  const iterations = at === -1 ? 20_000 : Number(process.argv[at + 1]);
  const before = loadavg()[0] ?? 0;
  const stages = await requestPathCosts(iterations);
  process.stdout.write(
    `${requestPathTable(stages)}\n\nload average ${before.toFixed(2)} before, ${(loadavg()[0] ?? 0).toFixed(2)} after\n`,
  );
}
