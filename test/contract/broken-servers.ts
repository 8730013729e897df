// The deliberately broken servers of the self-check: each is the real fake backend behind a proxy that breaks ONE rule,
// with the exact set of rules the contract suite must report for it: a server that slips through, or that is reported
// under a rule it did not break, is a bug in the suite.
import { primaryCreation } from '../../client/requests/linked-operations.ts';
import { matchOperation, openapiDocument, type OperationId } from '../../spec/index.ts';
import type { Breakage, ProxiedRequest, ProxiedResponse } from './breaking-proxy.ts';

/** The operation a request reaches, through the spec's path templates (as the proxy finds it), with its parameters. */
function routeOf(
  request: ProxiedRequest,
): { operationId: OperationId; parameters: Record<string, string> } | undefined {
  return matchOperation(openapiDocument, request.method, request.path.split('?')[0] ?? '', false);
}

function operationOf(request: ProxiedRequest): OperationId | 'other' {
  return routeOf(request)?.operationId ?? 'other';
}

/** The id of the agent a request addresses (the path parameter a deploy's answer supplies), decoded. */
function agentOf(request: ProxiedRequest): string {
  const value = routeOf(request)?.parameters[primaryCreation().parameter] ?? '';
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rewrites the JSON body of a response (left alone when it is not a JSON object). */
function editJson(response: ProxiedResponse, edit: (body: Record<string, unknown>) => void): ProxiedResponse {
  const body = parse(response.body);
  if (!isRecord(body)) return response;
  edit(body);
  return { ...response, body: JSON.stringify(body) };
}

/** Rewrites the JSON body of a request (left alone when it is not a JSON object). */
function editRequestJson(request: ProxiedRequest, edit: (body: Record<string, unknown>) => void): ProxiedRequest {
  const body = parse(request.body);
  if (!isRecord(body)) return request;
  edit(body);
  return { ...request, body: JSON.stringify(body) };
}

function problem(status: number, title: string, path: string): ProxiedResponse {
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: JSON.stringify({
      type: 'https://agent-registry.dev/problems/broken',
      title,
      status,
      detail: `${title} (broken server)`,
      instance: path,
    }),
  };
}

/** What a broken server is given: the token the fake accepts, for servers that let bad credentials through. */
interface BreakageContext {
  token: string;
}

export interface BrokenServer {
  /** A fresh breakage (some remember what they saw, e.g. the first agentId). */
  given: (context: BreakageContext) => Breakage;
  /** Exactly the rules the failed checks report (the `rule` of every violation), no more, no fewer. */
  rules: string[];
  /** Extra arguments of its contract run (e.g. --seed-only). */
  args?: string[];
  /** `several`: it must be caught under every seed, so it runs under `brokenServerSeeds` too, not only the table's one. */
  seeds?: 'several';
}

/**
 * The seeds a server marked `seeds: 'several'` runs under besides the table's own: fixed ones, and one that changes
 * daily (printed by the test), so a breakage the suite catches only by the luck of a generated case shows.
 * @example brokenServerSeeds(new Date('2026-12-01')) // [1, 2008714486, 4242, <a seed of that day>]
 */
export function brokenServerSeeds(today: Date): number[] {
  return [1, 2008714486, 4242, (Math.floor(today.getTime() / 86_400_000) * 7919) % 2 ** 31];
}

/** Decodes the payload of a JWT (the second segment), or undefined. */
function jwtPart(token: string, index: number): Record<string, unknown> | undefined {
  const segment = token.split('.')[index];
  if (segment === undefined) return undefined;
  const value = parse(Buffer.from(segment, 'base64url').toString('utf8'));
  return isRecord(value) ? value : undefined;
}

/**
 * The table of broken servers: `[name, { given, rules, args }]`.
 * @example for (const [name, { given, rules }] of brokenServers) ...
 */
export const brokenServers: Array<[string, BrokenServer]> = [
  [
    'agent price of the wrong type (a string)',
    {
      rules: ['body-schema'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'getAgent' && res.status === 200
            ? editJson(res, (b) => {
                if (isRecord(b.tokenomics)) b.tokenomics.price = String(b.tokenomics.price);
              })
            : res,
      }),
    },
  ],
  [
    'deploy answers a status outside the AgentStatus enum',
    {
      rules: ['body-schema'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'deployAgent' && res.status === 201
            ? editJson(res, (b) => {
                b.status = 'running';
              })
            : res,
      }),
    },
  ],
  [
    'retrieved agent misses a required field (creator)',
    {
      rules: ['body-schema'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'getAgent' && res.status === 200
            ? editJson(res, (b) => {
                delete b.creator;
              })
            : res,
      }),
    },
  ],
  [
    'deploy answers 200 instead of 201',
    {
      rules: ['status-documented'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'deployAgent' && res.status === 201 ? { ...res, status: 200 } : res,
      }),
    },
  ],
  [
    'agent served as text/plain',
    {
      rules: ['content-type'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'getAgent' && res.status === 200
            ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain' } }
            : res,
      }),
    },
  ],
  [
    'problems served as application/json',
    {
      rules: ['content-type'],
      given: () => ({
        response: (res) =>
          res.status === 404 ? { ...res, headers: { ...res.headers, 'content-type': 'application/json' } } : res,
      }),
    },
  ],
  [
    'problem status differs from the HTTP status',
    {
      rules: ['problem-status-matches'],
      given: () => ({
        response: (res) =>
          res.status === 404
            ? editJson(res, (b) => {
                b.status = 400;
              })
            : res,
      }),
    },
  ],
  [
    'accepts revenueShare above 1 (clamps it)',
    {
      rules: ['rejects-invalid-request'],
      given: () => ({
        request: (req) =>
          operationOf(req) === 'deployAgent'
            ? editRequestJson(req, (b) => {
                if (typeof b.revenueShare === 'number' && b.revenueShare > 1) b.revenueShare = 1;
              })
            : req,
      }),
    },
  ],
  [
    'accepts a priority outside its enum',
    {
      rules: ['rejects-invalid-request'],
      given: () => ({
        request: (req) =>
          operationOf(req) === 'executeAgentTask'
            ? editRequestJson(req, (b) => {
                if (typeof b.priority === 'string' && !['low', 'normal', 'high'].includes(b.priority))
                  b.priority = 'normal';
              })
            : req,
      }),
    },
  ],
  [
    'accepts a JSON body sent as text/plain',
    {
      rules: ['rejects-invalid-request'],
      given: () => ({
        request: (req) =>
          req.headers['content-type']?.startsWith('text/plain')
            ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } }
            : req,
      }),
    },
  ],
  [
    'answers 500 to malformed JSON',
    {
      rules: ['not-a-server-error'],
      given: () => ({
        request: (req) =>
          req.method === 'POST' &&
          req.headers['content-type'] === 'application/json' &&
          req.headers.authorization !== undefined &&
          parse(req.body) === undefined
            ? problem(500, 'Internal server error', req.path)
            : req,
      }),
    },
  ],
  [
    'no auth check (a missing Authorization header is let through)',
    {
      rules: ['rejects-unauthenticated'],
      given: ({ token }) => ({
        request: (req) =>
          req.headers.authorization === undefined
            ? { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } }
            : req,
      }),
    },
  ],
  [
    'accepts a token whose signature was altered',
    {
      rules: ['rejects-unauthenticated'],
      given: ({ token }) => ({
        request: (req) => {
          const sent = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
          const [h, p] = token.split('.');
          return sent !== token && sent.startsWith(`${h}.${p}.`)
            ? { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } }
            : req;
        },
      }),
    },
  ],
  [
    '401 without a WWW-Authenticate challenge',
    {
      rules: ['required-header'],
      given: () => ({
        response: (res) => {
          if (res.status !== 401) return res;
          const { 'www-authenticate': _dropped, ...headers } = res.headers;
          return { ...res, headers };
        },
      }),
    },
  ],
  [
    'a deployed agent cannot be retrieved',
    {
      // The conformance and reliability checks retrieve a deployed agent too: their valid GET is answered 404.
      rules: ['deployed-agent-retrievable', 'success-status'],
      given: ({ token }) => {
        const deployed = new Set<string>();
        return {
          response: (res, req) => {
            const op = operationOf(req);
            if (op === 'deployAgent' && res.status === 201) {
              const body = parse(res.body);
              if (isRecord(body) && typeof body.agentId === 'string') deployed.add(body.agentId);
            }
            // Only what the fake accepted turns into a 404: a request it rejected (401) keeps its answer, so this
            // server breaks one rule, not also the auth checks' 401.
            if (
              op === 'getAgent' &&
              res.status === 200 &&
              req.headers.authorization === `Bearer ${token}` &&
              deployed.has(agentOf(req))
            )
              return problem(404, 'Agent not found', req.path);
            return res;
          },
        };
      },
    },
  ],
  [
    'retrieve disagrees with the deploy (name changed)',
    {
      // body-schema too: the edges check deploys a name of 100 characters, and the edited one breaks Agent.name's
      // maxLength of 100 (the OWASP string-limit bound).
      rules: ['retrieve-agrees-with-deploy', 'body-schema'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'getAgent' && res.status === 200
            ? editJson(res, (b) => {
                b.name = `${String(b.name)} (edited)`;
              })
            : res,
      }),
    },
  ],
  [
    "the deploy's answer misreports the name it stores (the one sent)",
    {
      // Only the deploy's own answer is wrong: what is stored, and retrieved, is what was sent. The answer's name keeps
      // its length, so no bound of the spec catches it; only comparing the answer with the request does, under any seed.
      rules: ['answer-echoes-request'],
      args: ['--seed-only'],
      seeds: 'several',
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'deployAgent' && res.status === 201
            ? editJson(res, (b) => {
                const name = String(b.name);
                b.name = `${name.slice(0, -1)}${name.endsWith('x') ? 'y' : 'x'}`;
              })
            : res,
      }),
    },
  ],
  ...(
    [
      ['', ['retrieve-agrees-with-deploy'], ['--seed-only']],
      [' (every rule)', ['retrieve-agrees-with-deploy', 'body-schema'], []],
    ] as const
  ).map(([variant, rules, args]): [string, BrokenServer] => [
    `retrieve answers another name, past the assumed maxLength${variant}`,
    {
      // The difference breaks an assumption (Agent.name's maxLength) and the seed (the name sent) in one field of one
      // answer: the assumption's report must not stand in for the seed's, which --seed-only keeps.
      rules: [...rules],
      args: [...args],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'getAgent' && res.status === 200
            ? editJson(res, (b) => {
                b.name = `${String(b.name)}${'x'.repeat(101)}`;
              })
            : res,
      }),
    },
  ]),
  [
    'totalSupply differs from initialSupply',
    {
      rules: ['retrieve-agrees-with-deploy'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'getAgent' && res.status === 200
            ? editJson(res, (b) => {
                if (isRecord(b.tokenomics) && typeof b.tokenomics.totalSupply === 'number')
                  b.tokenomics.totalSupply *= 2;
              })
            : res,
      }),
    },
  ],
  [
    'every deploy returns the same agentId',
    {
      // What is retrieved under the repeated id is the first agent, not the one just deployed.
      rules: ['distinct-agent-ids', 'retrieve-agrees-with-deploy'],
      given: () => {
        let first: unknown;
        return {
          response: (res, req) =>
            operationOf(req) === 'deployAgent' && res.status === 201
              ? editJson(res, (b) => {
                  first ??= b.agentId;
                  b.agentId = first;
                })
              : res,
        };
      },
    },
  ],
  [
    'an unknown agent is answered 400 instead of 404',
    {
      rules: ['unknown-agent-404'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'getAgent' && res.status === 404 ? problem(400, 'Bad request', req.path) : res,
      }),
    },
  ],
  [
    'rejects tasks with priority low',
    {
      rules: ['success-status'],
      given: () => ({
        request: (req) =>
          operationOf(req) === 'executeAgentTask' &&
          isRecord(parse(req.body)) &&
          (parse(req.body) as Record<string, unknown>).priority === 'low'
            ? problem(400, 'Request body is invalid', req.path)
            : req,
      }),
    },
  ],
  [
    'a new task is processing, not queued',
    {
      rules: ['new-task-queued'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'executeAgentTask' && res.status === 200
            ? editJson(res, (b) => {
                b.status = 'processing';
              })
            : res,
      }),
    },
  ],
  [
    'answers 500 when initialSupply is not a whole number',
    {
      rules: ['not-a-server-error'],
      given: () => ({
        request: (req) => {
          if (operationOf(req) !== 'deployAgent') return req;
          const body = parse(req.body);
          const supply = isRecord(body) ? body.initialSupply : undefined;
          return typeof supply === 'number' && supply > 0 && supply <= 1e15 && !Number.isInteger(supply)
            ? problem(500, 'Internal server error', req.path)
            : req;
        },
      }),
    },
  ],
  [
    'class 1: the retrieved agent has no performance object (caught with --seed-only: the seed lists it)',
    {
      rules: ['body-schema'],
      args: ['--seed-only'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'getAgent' && res.status === 200
            ? editJson(res, (b) => {
                delete b.performance;
              })
            : res,
      }),
    },
  ],
  [
    'class 2: parameters checked with typeof === "object", so an array or null is accepted',
    {
      rules: ['rejects-invalid-request'],
      given: () => ({
        request: (req) =>
          operationOf(req) === 'executeAgentTask'
            ? editRequestJson(req, (b) => {
                if (Array.isArray(b.parameters) || b.parameters === null) delete b.parameters;
              })
            : req,
      }),
    },
  ],
  [
    'class 3: accepts a token re-headed with alg none that carries the real payload',
    {
      rules: ['rejects-unauthenticated'],
      given: ({ token }) => ({
        request: (req) => {
          const sent = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
          const payload = token.split('.')[1];
          return jwtPart(sent, 0)?.alg === 'none' && sent.split('.')[1] === payload
            ? { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } }
            : req;
        },
      }),
    },
  ],
  [
    'class 4: the third deploy of a name gets the agentId of the one before it',
    {
      rules: ['distinct-agent-ids'],
      given: () => {
        const byName = new Map<string, unknown[]>();
        return {
          response: (res, req) => {
            if (operationOf(req) !== 'deployAgent' || res.status !== 201) return res;
            const name = String((parse(req.body) as Record<string, unknown> | undefined)?.name);
            const ids = byName.get(name) ?? [];
            byName.set(name, ids);
            return editJson(res, (b) => {
              if (ids.length >= 2) b.agentId = ids.at(-1);
              ids.push(b.agentId);
            });
          },
        };
      },
    },
  ],
  [
    'class 4: taskIds count per agent (tsk_1, tsk_2, … again for every agent)',
    {
      rules: ['distinct-task-ids'],
      given: () => {
        const counts = new Map<string, number>();
        return {
          response: (res, req) => {
            if (operationOf(req) !== 'executeAgentTask' || res.status !== 200) return res;
            const agent = agentOf(req);
            const next = (counts.get(agent) ?? 0) + 1;
            counts.set(agent, next);
            return editJson(res, (b) => {
              b.taskId = `tsk_${next}`;
            });
          },
        };
      },
    },
  ],
  [
    'class 5: the stored price is rounded to 2 decimals',
    {
      rules: ['retrieve-agrees-with-deploy'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'getAgent' && res.status === 200
            ? editJson(res, (b) => {
                if (isRecord(b.tokenomics) && typeof b.tokenomics.price === 'number')
                  b.tokenomics.price = Math.round(b.tokenomics.price * 100) / 100;
              })
            : res,
      }),
    },
  ],
  [
    'class 6: one retrieve in 10 fails with a documented 500',
    {
      rules: ['not-a-server-error'],
      given: () => {
        let count = 0;
        return {
          response: (res, req) => {
            if (operationOf(req) !== 'getAgent' || res.status !== 200) return res;
            count += 1;
            return count % 10 === 0 ? problem(500, 'Internal server error', req.path) : res;
          },
        };
      },
    },
  ],
  [
    'class 7: rejects revenueShare exactly 1 (reads the range as 0 ≤ x < 1)',
    {
      rules: ['success-status'],
      given: () => ({
        request: (req) =>
          operationOf(req) === 'deployAgent' &&
          (parse(req.body) as Record<string, unknown> | undefined)?.revenueShare === 1
            ? problem(400, 'Request body is invalid', req.path)
            : req,
      }),
    },
  ],
  [
    'a documented but wrong status: tasks for an active agent are answered 409',
    {
      rules: ['success-status'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'executeAgentTask' && res.status === 200
            ? problem(409, 'Agent does not accept tasks', req.path)
            : res,
      }),
    },
  ],
  // Faults in one place: auth skipped on one writing operation only; a field the description lists missing in a result.
  // Each is caught in --seed-only mode: a 2xx to bad credentials and a missing listed field break the seed itself.
  ...(['deployAgent', 'executeAgentTask'] as const).map((operationId): [string, BrokenServer] => [
    `no auth check on ${operationId} (any credentials, or none, are let through; caught with --seed-only)`,
    {
      rules: ['rejects-unauthenticated'],
      args: ['--seed-only'],
      given: ({ token }) => ({
        request: (req) =>
          operationOf(req) === operationId && req.headers.authorization !== `Bearer ${token}`
            ? { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } }
            : req,
      }),
    },
  ]),
  ...(
    [
      ['deployAgent', 201, 'tokenAddress'],
      ['executeAgentTask', 200, 'cost'],
    ] as const
  ).map(([operationId, status, field]): [string, BrokenServer] => [
    `the ${operationId} result has no ${field} (caught with --seed-only: the description lists it)`,
    {
      rules: ['body-schema'],
      args: ['--seed-only'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === operationId && res.status === status
            ? editJson(res, (b) => {
                delete b[field];
              })
            : res,
      }),
    },
  ]),
];
