// What checking one hostile answer costs: the spec's agent example with `capabilities` of N wrong items (numbers where
// strings belong), checked by checkResponse as the proxy, the contract suite and `pact verify` check an answer.
// Runs alone: `/usr/bin/time -v node benchmarks/probes/response-checker-cost.ts [--items 1000000]` (peak RSS from time).
import { loadavg } from 'node:os';
import { numberFlag, parseCommandLine } from '../../scripts/command-line.ts';
import { checkResponse, getAtPointer, openapiDocument, operations } from '../../spec/index.ts';

const usage = 'usage: node benchmarks/probes/response-checker-cost.ts [--items N]';
const values = parseCommandLine({ items: { type: 'string' } }, { usage });
const items = numberFlag('items', values.items ?? '1000000', { integer: true, min: 1, max: 10_000_000 }, usage);
// The read of one agent: the GET with a path parameter (its 200 is the agent the example shows).
const read = [...operations.values()].find(
  (operation) => operation.method === 'GET' && operation.pathParameters.length > 0,
);
if (read === undefined) throw new Error('the spec has no GET with a path parameter');
const agent = JSON.stringify(getAtPointer(openapiDocument, '/components/examples/AgentTrading/value'));
const body = agent.replace(/"capabilities":\[[^\]]*\]/, `"capabilities":[${'1,'.repeat(items - 1)}1]`);
const started = performance.now();
const check = checkResponse({ operationId: read.operationId, status: 200, contentType: 'application/json', body });
const ms = performance.now() - started;
console.log(
  `${items} wrong items (${(body.length / 2 ** 20).toFixed(1)} MiB): ${check.violations.length} violations, ` +
    `${check.warnings.length} warnings in ${ms.toFixed(0)} ms; heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB; ` +
    `load average ${loadavg()[0]?.toFixed(2)}`,
);
