// The servers the bench drives (the fake, Prism, a bare node:http ceiling): started pinned, probed with a first deploy.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import {
  getAtPointer,
  getOperation,
  isJsonObject,
  openapiDocument,
  resolveValue,
  type OperationId,
} from '../spec/index.ts';
import { primaryCreation } from '../verifier-client/requests/linked-operations.ts';
import { cliError } from '../scripts/cli-error.ts';
import { freePort, prismMock, repoRoot, spawnServer, type SpawnedServer } from '../test/support/spawned-server.ts';
import { serverCpu, type Options, type Target } from './options.ts';

/**
 * The JSON text of the operation's first documented request example (the richest one), or undefined without a body.
 * @example requestBody(primaryCreation().creator) // '{"name":"…","category":"defi",…}'
 */
export function requestBody(operationId: OperationId): string | undefined {
  const pointer = getOperation(operationId).requestSchemaPointer;
  if (pointer === undefined) return undefined;
  const examples = getAtPointer(openapiDocument, pointer.replace(/\/schema$/, '/examples'));
  const first = resolveValue(isJsonObject(examples) ? Object.values(examples)[0] : undefined);
  const value = isJsonObject(first) ? first.value : undefined;
  if (value === undefined) throw new Error(`spec/openapi.yaml has no request example for ${operationId}`);
  return JSON.stringify(value);
}

/** The body every deploy of the bench sends. */
export const deployBody = requestBody(primaryCreation().creator) ?? '{}';

let bearer = '';

/** Prism accepts any non-empty bearer and the bare server none at all; only the fake needs a real token. */
export function useAnyToken(): void {
  bearer = 'any-token-prism-and-bare-do-not-verify';
}

function token(): string {
  if (bearer) return bearer;
  try {
    bearer = execFileSync(process.execPath, ['scripts/commands/token.ts'], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split('\n').at(-1) ?? '';
    cliError(
      `cannot get a token from scripts/commands/token.ts (${stderr || (error as Error).message}); is the fake backend built? Try --targets prism,bare`,
      1,
    );
  }
  return bearer;
}

/** Authorization and JSON content type for every request of the bench. */
export function headers(): Record<string, string> {
  return { authorization: `Bearer ${token()}`, 'content-type': 'application/json' };
}

/** Starts one target server pinned to the server core. */
export async function startTarget(
  target: Target,
  options: Options,
  fakeArgs: string[] = [],
  env?: NodeJS.ProcessEnv,
): Promise<SpawnedServer> {
  switch (target) {
    case 'baseline':
      return spawnServer({
        name: 'baseline',
        args: [
          ...options.fakeNodeArgs,
          join(resolve(options.baseline ?? '.'), 'scripts/commands/serve.ts'),
          '--port',
          '0',
          '--host',
          '127.0.0.1',
          ...fakeArgs,
        ],
        ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
        cpu: serverCpu,
        ...(env && { env }),
      });
    case 'session':
    case 'fake':
      return spawnServer({
        name: target,
        args: [...options.fakeNodeArgs, 'scripts/commands/serve.ts', '--port', '0', '--host', '127.0.0.1', ...fakeArgs],
        ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
        cpu: serverCpu,
        ...(env && { env }),
      });
    case 'bare':
      return spawnServer({
        name: 'bare',
        args: ['benchmarks/baseline-server.ts', '--port', '0'],
        ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
        cpu: serverCpu,
      });
    case 'prism': {
      const port = await freePort();
      return spawnServer({
        name: 'prism',
        ...prismMock(port),
        cpu: serverCpu,
      });
    }
  }
}

/** Deploys one agent; resolves with its id once the server answers 2xx (retrying while the socket is not yet accepting). */
export async function deployOne(server: SpawnedServer, extraHeaders: Record<string, string> = {}): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      const response = await fetch(`${server.baseUrl}/v1/agents/deploy`, {
        method: 'POST',
        headers: { ...headers(), ...extraHeaders },
        body: deployBody,
      });
      const text = await response.text();
      if (response.status === 201) {
        const parsed: unknown = JSON.parse(text);
        const id = typeof parsed === 'object' && parsed !== null && 'agentId' in parsed ? parsed.agentId : undefined;
        if (typeof id !== 'string')
          throw new Error(`${server.name} deploy answered without an agentId: ${text.slice(0, 200)}`);
        return id;
      }
      throw new Error(`${server.name} answered deploy with ${response.status}: ${text.slice(0, 300)}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith(server.name)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  throw new Error(`${server.name} never answered a deploy`);
}

/** A started target with one deployed agent. */
export interface Started {
  server: SpawnedServer;
  agentId: string;
  /** Spawn to the first successful deploy, in ms. */
  coldStartMs: number;
  /** Sent with every request besides auth (the `session` target's X-Mock-Session). */
  extraHeaders: Record<string, string>;
}

/**
 * Starts a target and deploys one agent: the time to that first 201 is the cold start.
 * @example const probe = await startAndProbe('fake', options); await probe.server.stop();
 */
export async function startAndProbe(
  target: Target,
  options: Options,
  fakeArgs: string[] = [],
  env?: NodeJS.ProcessEnv,
): Promise<Started> {
  const before = performance.now();
  const server = await startTarget(target, options, fakeArgs, env);
  const extraHeaders: Record<string, string> = target === 'session' ? { 'x-mock-session': 'bench' } : {};
  const agentId = await deployOne(server, extraHeaders);
  return { server, agentId, coldStartMs: performance.now() - before, extraHeaders };
}
