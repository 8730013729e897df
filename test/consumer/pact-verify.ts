// `npx agent-registry-kit pact verify` from the packed package, in the scratch app: a pact of the repository's
// fixtures copied into the app passes (exit 0), a broken one fails with its finding (exit 1), and a missing file is one
// line and exit 2. Registered in consumer.test.ts's describe.
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { root, run, scratch } from './scratch-app.ts';

/**
 * Registers the `pact verify` steps; call it inside the consumer test's describe.
 * @example describe('the packed package…', () => { pactVerifySteps(); });
 */
export function pactVerifySteps(): void {
  it('verifies a pact against the spec with npx agent-registry-kit pact verify: 0 compatible, 1 with the finding, 2 in one line', async () => {
    const pacts = join(scratch.app, 'pacts');
    await mkdir(pacts, { recursive: true });
    const fixtures = join(root, 'test', 'pact', 'fixtures');
    await cp(join(fixtures, 'valid', 'v3-several-interactions.json'), join(pacts, 'web-app-agent-registry.json'));
    await cp(join(fixtures, 'broken', 'wrong-enum.json'), join(pacts, 'broken.json'));
    const verify = (file: string) =>
      run('npx', ['agent-registry-kit', 'pact', 'verify', '--pact', `pacts/${file}`], scratch.app);

    const valid = await verify('web-app-agent-registry.json');
    expect(valid.stdout).toMatch(/^compatible: every interaction agrees with the spec$/m);
    expect(valid.status, valid.stderr).toBe(0);

    const broken = await verify('broken.json');
    expect(broken.stdout).toMatch(
      /response: \/status must be one of active, paused, deprecated \(found "retired"\) \[body-schema, seed,/,
    );
    expect(broken.stdout).toMatch(/^incompatible: 1 finding in 1 interaction/m);
    expect(broken.status).toBe(1);

    const missing = await verify('missing.json');
    const lines = missing.stderr.split('\n').filter((line) => line !== '' && !/^npm (warn|notice)/.test(line));
    expect(lines).toEqual([
      expect.stringMatching(/^agent-registry-kit: cannot read the pact pacts\/missing\.json \(ENOENT/),
    ]);
    expect(missing.status).toBe(2);
  });
}
