// The benchmark's ceiling: a bare node:http server that answers each route with the spec's own example body
// (an Agent is ~0.7 KB), with no validation, auth or store, so `npm run bench` can say what share of it the fake reaches.
import { createServer } from 'node:http';
// Only the document itself: importing spec/index.ts would compile validators and slow the ceiling's cold start.
import { openapiDocument } from '../spec/openapi-document.generated.ts';
import { getAtPointer } from '../spec/json-pointer.ts';
import { cliError } from '../scripts/cli-error.ts';
import { LOG_PREFIX } from '../mocks/domain/logger.ts';
import { parseCommandLine } from '../scripts/command-line.ts';

function example(name: string): Buffer {
  const value = getAtPointer(openapiDocument, `/components/examples/${name}/value`);
  if (value === undefined) throw new Error(`spec has no example ${name}`);
  return Buffer.from(JSON.stringify(value));
}

const agent = example('AgentTrading');
const deployed = example('DeployResultTrading');
const submitted = example('TaskSubmissionQueued');

/** Answers one request after reading its body, as any real server must; the body itself is ignored. */
function reply(method: string | undefined, url: string | undefined): { status: number; body: Buffer } {
  if (method === 'POST' && url === '/v1/agents/deploy') return { status: 201, body: deployed };
  if (method === 'POST' && url !== undefined && url.endsWith('/execute')) return { status: 200, body: submitted };
  return { status: 200, body: agent };
}

const options = parseCommandLine(
  { port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' } },
  { usage: 'usage: node benchmarks/baseline-server.ts [--port N] [--host 127.0.0.1]' },
);
const port = Number(options.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  cliError(`--port must be an integer from 0 to 65535, got ${options.port}`);

const server = createServer((request, response) => {
  request.on('data', () => {});
  request.on('end', () => {
    const { status, body } = reply(request.method, request.url);
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
    response.end(body);
  });
});
server.on('error', (error) => cliError(`bare baseline cannot listen on ${options.host}:${port}: ${error.message}`));
server.listen(port, options.host, () => {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  process.stdout.write(`${LOG_PREFIX} bare baseline listening on http://${options.host}:${bound}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
