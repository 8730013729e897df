import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../mocks/core/request/auth.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = (
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } => {
  const result = spawnSync(process.execPath, ['scripts/commands/token.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
};

describe('npm run token', () => {
  it('prints only a token the fake accepts, for the given sub', async () => {
    const result = run(['--sub', 'carol', '--ttl', '120']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(await createAuthenticator().authenticate(`Bearer ${result.stdout.trim()}`)).toEqual({
      ok: true,
      sub: 'carol',
    });
  });

  it('prints an expired token with --expired', async () => {
    const result = run(['--expired']);
    const verdict = await createAuthenticator().authenticate(`Bearer ${result.stdout.trim()}`);
    expect(verdict.ok).toBe(false);
  });

  it('signs with --secret or MOCK_JWT_SECRET', async () => {
    expect((await createAuthenticator('s1').authenticate(`Bearer ${run(['--secret', 's1']).stdout.trim()}`)).ok).toBe(
      true,
    );
    expect(
      (await createAuthenticator('s2').authenticate(`Bearer ${run([], { MOCK_JWT_SECRET: 's2' }).stdout.trim()}`)).ok,
    ).toBe(true);
  });

  it.each([
    ['a bad ttl', ['--ttl', '-5']],
    ['a ttl longer than the fake accepts (7 days)', ['--ttl', '604801']],
    ['an unknown flag', ['--user', 'x']],
    ['an empty sub', ['--sub', '']],
    ['an empty secret', ['--secret', '']],
    // The fake refuses such a sub (it would become a creator it cannot keep): no token it refuses is printed.
    ['a sub holding an escape sequence', ['--sub', '\u001b[2J']],
    ['a sub of 257 characters', ['--sub', 's'.repeat(257)]],
  ])('refuses %s with one line on stderr and nothing on stdout', (_name, args) => {
    const result = run(args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
