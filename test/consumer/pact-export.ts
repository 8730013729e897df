import { readFile } from 'node:fs/promises';
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
      // The component's jsdom tests alone, writing their pact where no other step writes.
      const jsdom = await run(appBin('vitest'), ['run', 'tests/agent-card-pact.spec.tsx'], app, {
        PACT_FILE: 'pacts/jsdom.json',
      });
      succeeded(jsdom, 'vitest run tests/agent-card-pact.spec.tsx');
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
        'Retrieve an agent (GET /v1/agents/{agentId}): 200, given an agent exists with status paused',
        'Retrieve an agent (GET /v1/agents/{agentId}): 404, given no agent has the requested agentId',
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
