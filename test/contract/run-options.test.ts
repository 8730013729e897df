// API_TOKEN and API_BASE_URL as the contract CLI reads them: one normalized token, and a base URL that can carry no
// secret into a message, cannot break request URLs, and warns when the token would travel in clear text.
import { describe, expect, test } from 'vitest';
import { normalizeToken, parseBaseUrl, RunOptionError } from '../../contract-tests/run-options.ts';
import { runContract } from './contract-runner.ts';

describe('normalizeToken', () => {
  test.each([
    ['a token file with CRLF endings', { given: 'aaa.bbb.ccc\r\n', want: 'aaa.bbb.ccc' }],
    ['spaces and tabs around', { given: ' \taaa.bbb.ccc \t', want: 'aaa.bbb.ccc' }],
    ['a byte-order mark', { given: '\uFEFFaaa.bbb.ccc\n', want: 'aaa.bbb.ccc' }],
    ['a token with / + =', { given: 'tok/x+y==', want: 'tok/x+y==' }],
  ])('%s is trimmed to what the Authorization header carries', (_name, { given, want }) => {
    expect(normalizeToken(given)).toBe(want);
  });

  test.each([
    ['unset', { given: undefined, want: /^API_TOKEN is not set/ }],
    ['only whitespace', { given: ' \r\n', want: /^API_TOKEN is only whitespace/ }],
    ['a "Bearer " prefix', { given: 'Bearer secret-value', want: /without "Bearer "$/ }],
    ['two lines', { given: 'secret-one\nsecret-two', want: /on one line/ }],
    ['a non-ASCII character', { given: 'secret-välue', want: /non-ASCII/ }],
  ])('%s is refused with one line that does not repeat it', (_name, { given, want }) => {
    const error = (() => {
      try {
        normalizeToken(given);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(RunOptionError);
    const message = error instanceof Error ? error.message : '';
    expect(message).toMatch(want);
    expect(message).not.toContain('secret');
  });
});

describe('parseBaseUrl', () => {
  test.each([
    ['a loopback address', { given: 'http://127.0.0.1:4010/', want: 'http://127.0.0.1:4010' }],
    ['localhost with a path', { given: 'http://localhost:4010/api//', want: 'http://localhost:4010/api' }],
    ['IPv6 loopback', { given: 'http://[::1]:4010', want: 'http://[::1]:4010' }],
    ['https anywhere', { given: 'https://api.example.com/registry', want: 'https://api.example.com/registry' }],
  ])('%s is accepted without a warning', (_name, { given, want }) => {
    expect(parseBaseUrl(given)).toEqual({ baseUrl: want, warnings: [] });
  });

  test.each([
    ['a host name', 'http://api.example.com'],
    ['a LAN address', 'http://192.168.1.20:4010'],
    ['every interface', 'http://0.0.0.0:4010'],
  ])('plain http to %s is accepted with a clear-text warning', (_name, given) => {
    const { warnings } = parseBaseUrl(given);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /plain http:\/\/ .* not loopback: API_TOKEN crosses the network in clear text; use https:\/\//,
    );
  });

  test.each([
    ['unset', { given: undefined, want: /^API_BASE_URL is not set/ }],
    ['not a URL', { given: 'localhost:4010', want: /^API_BASE_URL must start with http:\/\/ or https:\/\// }],
    ['a relative path', { given: '/v2', want: /^API_BASE_URL is not a URL/ }],
    [
      'a user and password',
      {
        given: 'http://ci-user:hunter2-secret@127.0.0.1:4010',
        want: /user name or password.*set it to http:\/\/127\.0\.0\.1:4010$/,
      },
    ],
    [
      'a user name alone',
      { given: 'https://secret-user@api.example.com/x', want: /set it to https:\/\/api\.example\.com\/x$/ },
    ],
    [
      'a query',
      {
        given: 'http://127.0.0.1:4010/?api_key=secret-key',
        want: /must not have a query .*set it to http:\/\/127\.0\.0\.1:4010$/,
      },
    ],
    [
      'an empty query',
      {
        given: 'http://127.0.0.1:4010/base?',
        want: /must not have a query .*set it to http:\/\/127\.0\.0\.1:4010\/base$/,
      },
    ],
    ['a fragment', { given: 'http://127.0.0.1:4010#secret-anchor', want: /or fragment/ }],
    [
      '/v1 at the end',
      { given: 'http://127.0.0.1:4010/v1/', want: /must not end with \/v1.*set it to http:\/\/127\.0\.0\.1:4010$/ },
    ],
    ['a credential in a scheme-less value', { given: 'secret-user:secret-pass@host', want: /must start with http/ }],
  ])('%s is refused with one line that repeats no secret', (_name, { given, want }) => {
    const error = (() => {
      try {
        parseBaseUrl(given);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(RunOptionError);
    const message = error instanceof Error ? error.message : '';
    expect(message).toMatch(want);
    expect(message).not.toMatch(/secret|hunter2|ci-user/);
    expect(message).not.toContain('\n');
  });
});

describe('npm run contract', () => {
  test('refuses credentials in API_BASE_URL with one line that does not print them', async () => {
    const run = await runContract({ API_BASE_URL: 'http://ci-user:hunter2@127.0.0.1:9', API_TOKEN: 'x.y.z' });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/user name or password/);
    expect(run.stderr + run.stdout).not.toMatch(/hunter2|ci-user/);
  }, 60_000);

  test('warns once that plain http to a remote host sends the token in clear text', async () => {
    // 192.0.2.1 is TEST-NET-1: nothing answers, so the probe gives up after --timeout.
    const run = await runContract({ API_BASE_URL: 'http://192.0.2.1:9', API_TOKEN: 'x.y.z' }, ['--timeout', '300']);
    const lines = run.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^agent-registry-kit: warning: API_BASE_URL is plain http:\/\/ to 192\.0\.2\.1:9/);
    expect(lines[1]).toMatch(/cannot reach the server at http:\/\/192\.0\.2\.1:9/);
    expect(run.code).toBe(2);
  }, 60_000);
});
