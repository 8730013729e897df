// npm run contract's command line: a misconfigured run stops at once with one line that says what to fix, never falls
// back to a local server, and --help lists every option.
import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { runContract } from './contract-runner.ts';

describe('npm run contract refuses to run misconfigured', () => {
  test.each([
    [
      'no API_BASE_URL',
      {
        given: { env: { API_TOKEN: 'x.y.z' }, args: [] },
        want: /^agent-registry-kit: API_BASE_URL is not set; export API_BASE_URL=/,
      },
    ],
    [
      'no API_TOKEN',
      {
        given: { env: { API_BASE_URL: 'http://127.0.0.1:9' }, args: [] },
        want: /^agent-registry-kit: API_TOKEN is not set; export API_TOKEN=/,
      },
    ],
    [
      'API_BASE_URL with /v1',
      {
        given: { env: { API_BASE_URL: 'http://127.0.0.1:9/v1', API_TOKEN: 'x.y.z' }, args: [] },
        want: /must not end with \/v1.*set it to http:\/\/127\.0\.0\.1:9$/,
      },
    ],
    [
      'API_BASE_URL not a URL',
      {
        given: { env: { API_BASE_URL: 'localhost', API_TOKEN: 'x.y.z' }, args: [] },
        want: /API_BASE_URL is not a URL/,
      },
    ],
    [
      '--read-only without API_AGENT_ID',
      {
        given: { env: { API_BASE_URL: 'http://127.0.0.1:9', API_TOKEN: 'x.y.z' }, args: ['--read-only'] },
        want: /--read-only needs an existing agent; export API_AGENT_ID=/,
      },
    ],
    [
      'an unknown flag',
      {
        given: { env: { API_BASE_URL: 'http://127.0.0.1:9', API_TOKEN: 'x.y.z' }, args: ['--fast'] },
        want: /Unknown option '--fast'.*--help/,
      },
    ],
    [
      'a --replay that names no generated property',
      {
        given: {
          env: { API_BASE_URL: 'http://127.0.0.1:9', API_TOKEN: 'x.y.z' },
          args: ['--replay', 'generated/nothing:1:2'],
        },
        want: /--replay takes <property>:<path> as printed with a generated failure/,
      },
    ],
    [
      'a bad --runs',
      {
        given: { env: { API_BASE_URL: 'http://127.0.0.1:9', API_TOKEN: 'x.y.z' }, args: ['--runs', 'many'] },
        want: /--runs must be a whole number of at least 1, got "many"/,
      },
    ],
  ])(
    '%s',
    async (_name, { given, want }) => {
      const run = await runContract(given.env, given.args);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr.trim()).toMatch(want);
      expect(run.report).toBeUndefined();
    },
    60_000,
  );

  test('an unreachable server is one clear line, not a list of failures', async () => {
    // A port found free and then handed to the run could be taken by another process in between; this one is held by
    // a listener that resets every connection it accepts, so nothing else can answer on it while the run lasts.
    const refusing = createServer((socket) => socket.resetAndDestroy());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const address = refusing.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const run = await runContract({ API_BASE_URL: `http://127.0.0.1:${port}`, API_TOKEN: 'secret.token.value' }, [
        '--timeout',
        '2000',
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toMatch(
        new RegExp(
          `^agent-registry-kit: cannot reach the server at http://127\\.0\\.0\\.1:${port} \\((.*ECONNRESET.*|other side closed)\\); is it running, and is API_BASE_URL right\\?$`,
        ),
      );
      expect(run.stderr + run.stdout).not.toContain('secret.token.value');
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  }, 60_000);

  test('--help lists every option and the environment', async () => {
    const run = await runContract({}, ['--help']);
    expect(run.code).toBe(0);
    for (const option of [
      '--junit',
      '--json',
      '--max-writes',
      '--read-only',
      '--seed-only',
      '--runs',
      '--seed',
      '--replay',
      '--timeout',
      'API_BASE_URL',
      'API_TOKEN',
      'API_AGENT_ID',
    ]) {
      expect(run.stdout).toContain(option);
    }
  }, 60_000);
});
