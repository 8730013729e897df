// The contract CLI's safety promises against hostile or broken servers: the token never appears in stdout, stderr, the
// JSON or the JUnit report however the server echoes it back, and --read-only creates nothing even when auth is broken.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { requestExamples } from '../../verifier-client/requests/spec-schemas.ts';
import { startBreakingProxy, type Breakage } from './breaking-proxy.ts';
import { fakeToken, runContract, startFakeBackend } from './contract-runner.ts';
import { echoForms, startEchoingServer } from './echoing-server.ts';

const jwt =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjaS1ib3QiLCJleHAiOjQxMDI0NDQ4MDB9.bG9uZy1zaWduYXR1cmUtb2YtdGhlLWNpLWJvdC10b2tlbg';

/** The first window of `width` characters (taken every `step`) of `secret` that `text` holds, if any. */
function leakedPiece(text: string, secret: string, width = 12, step = 4): string | undefined {
  for (let at = 0; at + width <= secret.length; at += step) {
    const piece = secret.slice(at, at + width);
    if (text.includes(piece)) return piece;
  }
  return secret.length < width && text.includes(secret) ? secret : undefined;
}

// Every run here has a server or proxy of its own and mostly waits on round trips between three processes, so the runs
// go side by side, in both describes.
describe('the token never appears in any output, whatever the server echoes', { concurrent: true }, () => {
  test.each([
    // A token file with CRLF endings: fetch trims the header value, so the redactor must hide the trimmed token.
    ['a JWT read from a file with CRLF endings', { given: `\r\n${jwt}\r\n`, token: jwt }],
    // `/` is echoed as `\/` by PHP; `+` and `=` are what percent-encoding and base64 change.
    [
      'an opaque token with / + = and spaces around',
      { given: ' \ttok_9Zp/4QmK+x7Lw/bN2sR8vT==  ', token: 'tok_9Zp/4QmK+x7Lw/bN2sR8vT==' },
    ],
    // Printable ASCII escapes treat specially: `\` (JSON.stringify writes `\\`), `%` (echoed URL-encoded as `%25`), `&`.
    [
      'an opaque token with \\ % &',
      { given: 'tok_\\9Zp%2F4QmK&x7Lw/bN2sR8vT==', token: 'tok_\\9Zp%2F4QmK&x7Lw/bN2sR8vT==' },
    ],
  ])(
    '%s',
    async (_name, { given, token }) => {
      const server = await startEchoingServer();
      try {
        const run = await runContract({ API_BASE_URL: server.url, API_TOKEN: given }, ['--seed', '7', '--runs', '1']);
        expect(run.code, run.stderr).toBe(1);
        // What was sent is the trimmed token, and the server really echoed it into the reports.
        expect(server.received).toContain(`Bearer ${token}`);
        expect(run.json).toContain('"x-echo-authorization": "Bearer <redacted>"');
        expect(run.json).toMatch(/answered 500 \{\\"detail\\":\\"x*<redact/);
        expect(run.stdout).toContain('<redacted>');
        expect(run.junit).toContain('&lt;redacted&gt;');
        const outputs = { stdout: run.stdout, stderr: run.stderr, json: run.json, junit: run.junit };
        for (const form of echoForms(token)) {
          for (const [where, text] of Object.entries(outputs))
            expect(leakedPiece(text, form.secret), `${where} holds the token echoed as ${form.name}`).toBeUndefined();
        }
      } finally {
        await server.close();
      }
    },
    120_000,
  );
});

/** The fake behind a proxy that breaks one of the guards a read-only POST relies on. */
const brokenGuards: Array<[string, { given: (token: string) => Breakage }]> = [
  [
    'auth accepts anything',
    {
      // Whatever credentials arrive (none, Basic, malformed, a forged signature), the fake sees a valid token.
      given: (token) => ({
        request: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } }),
      }),
    },
  ],
  [
    'request validation accepts anything',
    {
      // Any body of a write, however invalid, reaches the fake as the spec's valid example.
      given: () => ({
        request: (req) => {
          const operationId = /\/execute$/.test(req.path)
            ? 'executeAgentTask'
            : req.path === '/v1/agents/deploy'
              ? 'deployAgent'
              : undefined;
          if (req.method !== 'POST' || operationId === undefined) return req;
          return {
            ...req,
            headers: { ...req.headers, 'content-type': 'application/json' },
            body: JSON.stringify(requestExamples(operationId)[0]),
          };
        },
      }),
    },
  ],
];

describe('--read-only against a server with one broken guard', { concurrent: true }, () => {
  let fake: SpawnedServer | undefined;
  let token = '';
  beforeAll(async () => {
    fake = await startFakeBackend();
    token = await fakeToken();
  }, 60_000);
  afterAll(async () => {
    await fake?.stop();
  });

  test.each(brokenGuards)(
    '%s: creates nothing, since every POST it sends is one a second guard rejects',
    async (_name, { given }) => {
      if (!fake) throw new Error('the fake backend did not start');
      const deployed = await fetch(`${fake.baseUrl}/v1/agents/deploy`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'read-only target', category: 'defi', model: 'llama-2', initialSupply: 1000 }),
      });
      const { agentId } = (await deployed.json()) as { agentId: string };
      const proxy = await startBreakingProxy(fake.baseUrl, given(token));
      try {
        const run = await runContract({ API_BASE_URL: proxy.url, API_TOKEN: token, API_AGENT_ID: agentId }, [
          '--seed',
          '7',
          '--runs',
          '5',
          '--read-only',
        ]);
        expect(run.report?.errors, run.stdout).toEqual([]);
        const posts = proxy.log.filter((entry) => entry.method === 'POST');
        expect(posts.length, 'the doubly guarded checks did send POSTs').toBeGreaterThan(0);
        expect(posts.filter((entry) => entry.status < 400)).toEqual([]);
        // The auth checks of writing operations cannot run (a valid request with bad credentials): the run says so.
        expect(run.stdout).toContain('auth checks that cannot run (--read-only)');
        expect(run.stdout).toMatch(/auth check\(s\) could not run under --read-only .*deployAgent, executeAgentTask/);
      } finally {
        await proxy.close();
      }
    },
    120_000,
  );
});
