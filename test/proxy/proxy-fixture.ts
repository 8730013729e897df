// The setup the proxy's end-to-end files share: the fake as an upstream (started once per file, in process), a token it
// accepts, an agent of its seed and a throwaway folder; proxies started in front of any upstream with the lines they
// print kept; and the findings read back as the tests compare them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { startMockServer, type RunningMockServer } from '../../mocks/adapters/node-http/http-server.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import type { ProxyViolation } from '../../proxy/exchange-check.ts';
import { startProxyServer, type ProxyServerOptions, type RunningProxy } from '../../proxy/proxy-server.ts';
import { createUpstream } from '../../proxy/upstream.ts';
import { playSession, type AppCall } from './app-session.ts';

/** What a file's tests run against; filled in before its first test. */
export interface FakeUpstream {
  fake: RunningMockServer;
  /** A token the fake accepts. */
  token: string;
  /** An active agent of the fake's seed. */
  agentId: string;
  /** A folder of this file's own, removed after its last test. */
  work: string;
}

/**
 * Starts the fake before the file's first test and stops it (and removes the folder) after its last.
 * @example const setup = useFakeUpstream(); it('…', async () => { await startProxy(setup.fake.url); });
 */
export function useFakeUpstream(): FakeUpstream {
  const upstream = {} as FakeUpstream;
  beforeAll(async () => {
    upstream.fake = await startMockServer({ port: 0, logger: silentLogger });
    upstream.token = await mintToken({ sub: 'proxy-test' });
    const list = (await (await fetch(`${upstream.fake.url}/__mock/agents?status=active`)).json()) as {
      agents: { agentId: string }[];
    };
    upstream.agentId = list.agents[0]?.agentId ?? '';
    upstream.work = await mkdtemp(join(tmpdir(), 'agent-registry-kit-proxy-'));
  });
  afterAll(async () => {
    await upstream.fake.close();
    await rm(upstream.work, { recursive: true, force: true });
  });
  return upstream;
}

/** A proxy in front of `upstream` on a free port, silent, with the violation lines it prints kept in `lines`. */
export async function startProxy(
  upstream: string,
  options: Partial<ProxyServerOptions> = {},
): Promise<{ proxy: RunningProxy; lines: string[] }> {
  const lines: string[] = [];
  const proxy = await startProxyServer({
    upstream: createUpstream(upstream),
    port: 0,
    logger: silentLogger,
    print: (line) => lines.push(line),
    ...options,
  });
  return { proxy, lines };
}

/** Plays `calls` through the proxy, one after the other, each answer read whole. */
export const play = (proxy: RunningProxy, calls: readonly AppCall[]): Promise<Response[]> =>
  playSession(proxy.url, calls);

/** The violation of each group the proxy kept. */
export const violationsOf = (proxy: RunningProxy): ProxyViolation[] =>
  proxy.violations.report().groups.map((group) => group.violation);

/** The rules the server's answers broke, each once. */
export const serverRulesOf = (proxy: RunningProxy): string[] => [
  ...new Set(
    violationsOf(proxy)
      .filter((v) => v.part === 'response')
      .map((v) => v.rule),
  ),
];
