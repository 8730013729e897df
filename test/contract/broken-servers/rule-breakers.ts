// The broken servers that each break one rule of the spec or of what it links: an answer's schema, status or media
// type, a request the server should refuse, the credentials it should check, and a deploy its retrieve must agree with.
// ../broken-servers.ts joins this table with class-breakers.ts's.
import { agentOf, type BrokenServer, editJson, editRequestJson, isRecord, operationOf, parse, problem } from './kit.ts';

/** The servers breaking one rule each: `[name, { given, rules, args, seeds }]`. */
export const ruleBreakers: Array<[string, BrokenServer]> = [
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
];
