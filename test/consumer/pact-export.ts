import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { chromiumExecutable } from '../browser/chromium.ts';
import { appBin, run, type StartedGroups, scratch, startListening, stopGroups, succeeded } from './scratch-app.ts';

/** Registers the pact steps; call inside consumer.test.ts's concurrent describe. */
export function pactExportSteps(): void {
  it('writes a pact from the jsdom tests and from a Playwright run against serve; Pact’s verifier passes both against serve', {
    timeout: 900_000,
  }, async () => {
    const app = scratch.app;
    const started: StartedGroups = [];
    const serve = () => startListening('npx', ['agent-registry-kit', 'serve', '--port', '0'], started);
    try {
      // The component's two pact-writing test files (vitest runs them in parallel workers), writing one pact where no
      // other step writes: the file keeps both files' interactions. Run twice some seconds apart (the second run's
      // expired token names another expiry): the same bytes.
      const pactFiles = ['tests/agent-card-pact.spec.tsx', 'tests/agent-card-errors.spec.tsx'];
      const writeJsdomPact = async (): Promise<string> => {
        await rm(join(app, 'pacts/jsdom.json'), { force: true });
        succeeded(
          await run(appBin('vitest'), ['run', ...pactFiles], app, { PACT_FILE: 'pacts/jsdom.json' }),
          `vitest run ${pactFiles.join(' ')}`,
        );
        return readFile(join(app, 'pacts/jsdom.json'), 'utf8');
      };
      const firstRun = await writeJsdomPact();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await writeJsdomPact(), 'the second run’s pact').toBe(firstRun);
      expect(firstRun).toMatch(/expired at 2000-01-01T00:00:00\.000Z/);
      const [recorded, fresh] = await Promise.all([serve(), serve()]);
      const playwright = await run(appBin('playwright'), ['test', '-c', 'e2e/pact.config.ts'], app, {
        MOCK_URL: recorded,
        CHROMIUM: await chromiumExecutable(),
      });
      succeeded(playwright, 'playwright test -c e2e/pact.config.ts');
      const exported = succeeded(
        await run(
          'npx',
          [
            'agent-registry-kit',
            'pact',
            'export',
            '--base-url',
            recorded,
            '--consumer',
            'agent-card-e2e',
            '--provider',
            'agent-registry',
            '--out',
            'pacts/playwright.json',
          ],
          app,
        ),
        'pact export',
      );
      expect(exported.stdout).toBe('wrote 4 interaction(s), Pact V4, to pacts/playwright.json\n');
      const descriptions = async (file: string) =>
        (
          JSON.parse(await readFile(join(app, file), 'utf8')) as { interactions: { description: string }[] }
        ).interactions.map((interaction) => interaction.description);
      expect(await descriptions('pacts/jsdom.json')).toEqual([
        'Retrieve an agent (GET /v1/agents/{agentId}): 200, given an agent exists with status active',
        'Retrieve an agent (GET /v1/agents/{agentId}): 200, given an agent exists with status deprecated',
        'Retrieve an agent (GET /v1/agents/{agentId}): 200, given an agent exists with status paused',
        'Retrieve an agent (GET /v1/agents/{agentId}): 401, given the bearer token is refused',
        'Retrieve an agent (GET /v1/agents/{agentId}): 404, given no agent has the requested agentId',
        'Retrieve an agent (GET /v1/agents/{agentId}): 500, given the registry answers getAgent with 500',
        'Retrieve an agent (GET /v1/agents/{agentId}): 503, given the registry answers getAgent with 503',
        'Execute an agent task (POST /v1/agents/{agentId}/execute): 200, given an agent exists with status active',
        'Execute an agent task (POST /v1/agents/{agentId}/execute): 409, given an agent exists with status paused',
      ]);
      expect(await descriptions('pacts/playwright.json')).toEqual([
        'Retrieve an agent (GET /v1/agents/{agentId}): 200, given an agent exists with status active',
        'Retrieve an agent (GET /v1/agents/{agentId}): 404, given no agent has the requested agentId',
        'Execute an agent task (POST /v1/agents/{agentId}/execute): 200, given an agent exists with status active',
        'Execute an agent task (POST /v1/agents/{agentId}/execute): 409, given an agent exists with status paused',
      ]);
      for (const pact of ['pacts/jsdom.json', 'pacts/playwright.json']) {
        const verified = await run(process.execPath, ['verify-pact.mjs', pact, fresh], app);
        expect(verified.status, `${verified.stdout}\n${verified.stderr}`).toBe(0);
        expect(verified.stdout).toContain(`verified ${pact}`);
      }
    } finally {
      stopGroups(started);
    }
  });
}
