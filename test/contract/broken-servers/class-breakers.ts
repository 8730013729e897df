// The broken servers of the seven classes of check (docs/contract-tests.md), one at least for each, a documented but
// wrong status, and faults in one place (one operation's auth, one result's field). ../broken-servers.ts joins this
// table with rule-breakers.ts's.
import {
  agentOf,
  type BrokenServer,
  editJson,
  editRequestJson,
  isRecord,
  jwtPart,
  operationOf,
  parse,
  problem,
} from './kit.ts';

/** The servers of the classes of check: `[name, { given, rules, args, seeds }]`. */
export const classBreakers: Array<[string, BrokenServer]> = [
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
