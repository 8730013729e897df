// The deliberately broken servers of the self-check: each is the real fake backend behind a proxy that breaks ONE rule,
// with the check of the contract suite that must catch it. A broken server that slips through is a bug in the suite.
import type { CheckName } from '../../contract-tests/check-record.ts';
import type { Breakage, ProxiedRequest, ProxiedResponse } from './breaking-proxy.ts';

type Operation = 'deployAgent' | 'getAgent' | 'executeAgentTask' | 'other';

function operationOf(request: ProxiedRequest): Operation {
  const path = request.path.split('?')[0] ?? '';
  if (request.method === 'POST' && path === '/v1/agents/deploy') return 'deployAgent';
  if (request.method === 'POST' && /^\/v1\/agents\/[^/]+\/execute$/.test(path)) return 'executeAgentTask';
  if (request.method === 'GET' && /^\/v1\/agents\/[^/]+$/.test(path)) return 'getAgent';
  return 'other';
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
export interface BreakageContext {
  token: string;
}

export interface BrokenServer {
  /** A fresh breakage (some remember what they saw, e.g. the first agentId). */
  given: (context: BreakageContext) => Breakage;
  /** Checks that must report it (a failed check with a violation of each). */
  want: CheckName[];
}

/**
 * The table of broken servers: `[name, { given, want }]`.
 * @example for (const [name, { given, want }] of brokenServers) ...
 */
export const brokenServers: Array<[string, BrokenServer]> = [
  [
    'agent price of the wrong type (a string)',
    {
      want: ['conformance'],
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
      want: ['conformance'],
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
      want: ['conformance'],
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
      want: ['conformance'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'deployAgent' && res.status === 201 ? { ...res, status: 200 } : res,
      }),
    },
  ],
  [
    'agent served as text/plain',
    {
      want: ['conformance'],
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
      want: ['conformance'],
      given: () => ({
        response: (res) =>
          res.status === 404 ? { ...res, headers: { ...res.headers, 'content-type': 'application/json' } } : res,
      }),
    },
  ],
  [
    'problem status differs from the HTTP status',
    {
      want: ['conformance'],
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
      want: ['request-validation'],
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
      want: ['request-validation'],
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
      want: ['request-validation'],
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
      want: ['request-validation'],
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
      want: ['auth'],
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
      want: ['auth'],
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
      want: ['auth'],
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
      want: ['behaviour'],
      given: () => {
        const deployed = new Set<string>();
        return {
          response: (res, req) => {
            const op = operationOf(req);
            if (op === 'deployAgent' && res.status === 201) {
              const body = parse(res.body);
              if (isRecord(body) && typeof body.agentId === 'string') deployed.add(body.agentId);
            }
            if (op === 'getAgent' && deployed.has(decodeURIComponent(req.path.split('/')[3] ?? '')))
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
      want: ['behaviour'],
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
    'totalSupply differs from initialSupply',
    {
      want: ['behaviour'],
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
      want: ['behaviour'],
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
      want: ['behaviour'],
      given: () => ({
        response: (res, req) =>
          operationOf(req) === 'getAgent' && res.status === 404 ? problem(400, 'Bad request', req.path) : res,
      }),
    },
  ],
  [
    'rejects tasks with priority low',
    {
      want: ['behaviour'],
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
      want: ['behaviour'],
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
      want: ['generated'],
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
];
