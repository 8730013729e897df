// The proxy's rules beyond one exchange's schema: the read-back of a deploy, ids minted twice, fields that disagree
// within one exchange, a valid request refused, credentials on either side, and grouping that keeps every kind visible.
// Each rule is broken once by a small breaking proxy in front of the fake (test/contract/breaking-proxy.ts), or by a
// fixture server; the fake itself breaks none of them (test/proxy/proxy.test.ts, "passes the app's valid calls").
import { describe, expect, it } from 'vitest';
import type { ProxyViolation } from '../../proxy/exchange-check.ts';
import { startBreakingProxy, type Breakage, type ProxiedResponse } from '../contract/breaking-proxy.ts';
import { startFixtureServer } from '../support/fixture-server.ts';
import { startProxy, useFakeUpstream } from './proxy-fixture.ts';

const setup = useFakeUpstream();

const deployBody = { name: 'Conversation Probe', category: 'defi', model: 'gpt-4', initialSupply: 1000 };

function withJson(response: ProxiedResponse, edit: (body: Record<string, unknown>) => void): ProxiedResponse {
  const body = JSON.parse(response.body) as Record<string, unknown>;
  edit(body);
  return { ...response, body: JSON.stringify(body) };
}

/** The fake behind a breaking proxy behind the validating proxy; `run` plays the app and gets the findings. */
async function through(
  breakage: Breakage,
  run: (call: (method: string, path: string, body?: unknown, auth?: string) => Promise<Response>) => Promise<void>,
  options: { failOnViolation?: boolean } = {},
): Promise<ProxyViolation[]> {
  const broken = await startBreakingProxy(setup.fake.url, breakage);
  const { proxy } = await startProxy(broken.url, options);
  try {
    await run(async (method, path, body, auth = `Bearer ${setup.token}`) => {
      const answer = await fetch(proxy.url + path, {
        method,
        headers: { authorization: auth, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      await answer.clone().arrayBuffer();
      return answer;
    });
    return proxy.violations.report().groups.flatMap((group) => group.examples);
  } finally {
    await proxy.close();
    await broken.close();
  }
}

const isRead = (method: string, path: string) => method === 'GET' && /^\/v1\/agents\/[^/]+$/.test(path);

describe('across exchanges', () => {
  it('a read-back that disagrees with the deploy names both exchanges, the field, the rule and its origin', async () => {
    const found = await through(
      {
        response: (res, req) =>
          isRead(req.method, req.path) && res.status === 200
            ? withJson(res, (b) => {
                b.model = 'claude-3';
              })
            : res,
      },
      async (call) => {
        const deployed = (await (await call('POST', '/v1/agents/deploy', deployBody)).json()) as { agentId: string };
        await call('GET', `/v1/agents/${deployed.agentId}`);
      },
    );
    expect(found.map((v) => `${v.rule} ${v.pointer} ${v.origin} ${v.expected} ${v.found}`)).toEqual([
      'retrieve-agrees-with-deploy /model seed "gpt-4" "claude-3"',
    ]);
    const [finding] = found;
    expect(finding?.exchanges?.map((e) => `${e.method} ${e.path.replace(/agt_\w+/, 'agt_…')} ${e.status}`)).toEqual([
      'POST /v1/agents/deploy 201',
      'GET /v1/agents/agt_… 200',
    ]);
    for (const exchange of finding?.exchanges ?? []) expect(exchange.at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('capabilities the read-back shows for a deploy that sent none are compared with the documented empty list', async () => {
    const found = await through(
      {
        response: (res, req) =>
          isRead(req.method, req.path) && res.status === 200
            ? withJson(res, (b) => {
                b.capabilities = ['dropped'];
              })
            : res,
      },
      async (call) => {
        const deployed = (await (await call('POST', '/v1/agents/deploy', deployBody)).json()) as { agentId: string };
        await call('GET', `/v1/agents/${deployed.agentId}`);
      },
    );
    expect(found.map((v) => `${v.rule} ${v.pointer} ${v.expected}`)).toEqual([
      'retrieve-agrees-with-deploy /capabilities []',
    ]);
  });

  it('with --fail-on-violation the read-back that reveals the finding is replaced by a 502', async () => {
    let answer: Response | undefined;
    await through(
      {
        response: (res, req) =>
          isRead(req.method, req.path) && res.status === 200
            ? withJson(res, (b) => {
                b.name = 'Someone Else';
              })
            : res,
      },
      async (call) => {
        const deploy = await call('POST', '/v1/agents/deploy', deployBody);
        expect(deploy.status).toBe(201);
        const deployed = (await deploy.json()) as { agentId: string };
        answer = await call('GET', `/v1/agents/${deployed.agentId}`);
      },
      { failOnViolation: true },
    );
    expect(answer?.status).toBe(502);
    const problem = (await answer?.json()) as { detail: string };
    expect(problem.detail).toContain('retrieve-agrees-with-deploy at /name');
  });

  it('two deploys answered with the same agentId are named as distinct-agent-ids, with the earlier deploy', async () => {
    let first: unknown;
    const found = await through(
      {
        response: (res, req) => {
          if (req.path !== '/v1/agents/deploy' || res.status !== 201) return res;
          return withJson(res, (b) => {
            first ??= b.agentId;
            b.agentId = first;
          });
        },
      },
      async (call) => {
        await call('POST', '/v1/agents/deploy', deployBody);
        await call('POST', '/v1/agents/deploy', { ...deployBody, name: 'Second' });
      },
    );
    const repeated = found.filter((v) => v.rule === 'distinct-agent-ids');
    expect(repeated).toHaveLength(1);
    expect(repeated[0]?.exchanges?.map((e) => e.path)).toEqual(['/v1/agents/deploy', '/v1/agents/deploy']);
  });
});

describe('within one exchange', () => {
  it("the path's agentId against the body's, and the deploy's name against the answer's", async () => {
    const found = await through(
      {
        response: (res, req) =>
          res.status === 200 && isRead(req.method, req.path)
            ? withJson(res, (b) => {
                b.agentId = 'agt_SomeoneElse00000';
              })
            : res.status === 201
              ? withJson(res, (b) => {
                  b.name = 'Renamed';
                })
              : res,
      },
      async (call) => {
        await call('POST', '/v1/agents/deploy', deployBody);
        const list = (await (await fetch(`${setup.fake.url}/__mock/agents?status=active`)).json()) as {
          agents: { agentId: string }[];
        };
        await call('GET', `/v1/agents/${list.agents[0]?.agentId}`);
      },
    );
    const described = found.map((v) => `${v.rule} ${v.pointer} ${v.found}`);
    expect(described).toContain('answer-echoes-request /name "Renamed"');
    expect(described).toContain('answer-echoes-path-parameter /agentId "agt_SomeoneElse00000"');
  });

  it('a valid request refused with 400 is the server’s success-status; an invalid one refused is fine', async () => {
    const found = await through(
      {
        response: (res, req) =>
          req.path === '/v1/agents/deploy'
            ? {
                status: 400,
                headers: { 'content-type': 'application/problem+json' },
                body: JSON.stringify({
                  type: 'about:blank',
                  title: 'No',
                  status: 400,
                  detail: 'no',
                  instance: req.path,
                }),
              }
            : res,
      },
      async (call) => {
        await call('POST', '/v1/agents/deploy', deployBody);
        await call('POST', '/v1/agents/deploy', { ...deployBody, revenueShare: 5 });
      },
    );
    const server = found.filter((v) => v.part === 'response');
    expect(server.map((v) => `${v.rule} ${v.found} ${v.origin}`)).toEqual(['success-status 400 seed']);
  });

  it('a Basic or truncated credential answered 200 is a seed violation; the app’s own is a request finding', async () => {
    const list = (await (await fetch(`${setup.fake.url}/__mock/agents?status=active`)).json()) as {
      agents: { agentId: string }[];
    };
    const path = `/v1/agents/${list.agents[0]?.agentId}`;
    const found = await through(
      // Lets every credential through, as a server with no auth check would.
      { request: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${setup.token}` } }) },
      async (call) => {
        await call('GET', path, undefined, 'Basic dXNlcjpwYXNz');
        await call('GET', path, undefined, `Bearer ${setup.token.split('.').slice(0, 2).join('.')}`);
      },
    );
    const described = found.map((v) => `${v.part} ${v.rule} ${v.origin} ${v.found}`).sort();
    expect(described).toEqual([
      'request request-credentials seed a Basic credential',
      'request request-credentials seed a Bearer token that is not a JWT',
      'response rejects-unauthenticated seed 200 (accepted)',
      'response rejects-unauthenticated seed 200 (accepted)',
    ]);
  });
});

describe('grouping', () => {
  it('1,010 answers that are not JSON make one group, and a later different violation still shows', async () => {
    let calls = 0;
    const server = await startFixtureServer((req, res) => {
      req.resume();
      calls += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      // Every body different, as a server that prints its own error page per request.
      res.end(calls <= 1010 ? `<html>error ${calls}</html>` : '{"agentId": 7}');
    });
    const { proxy } = await startProxy(server.url);
    try {
      const headers = { authorization: `Bearer ${setup.token}` };
      for (let i = 0; i <= 1010; i += 1)
        await (await fetch(`${proxy.url}/v1/agents/agt_AAAAAAAAAAAAAAAA`, { headers })).arrayBuffer();
      const report = (await (await fetch(`${proxy.url}/__mock/violations`)).json()) as {
        dropped: number;
        groups: { count: number; violation: ProxyViolation }[];
      };
      expect(report.dropped).toBe(0);
      expect(report.groups.find((g) => g.violation.rule === 'body-is-json')?.count).toBe(1010);
      expect(report.groups.some((g) => g.violation.rule === 'body-schema')).toBe(true);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});
