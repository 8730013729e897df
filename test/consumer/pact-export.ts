import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { chromiumExecutable } from '../browser/chromium.ts';
import { appSuite } from './app-checks.ts';
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
      // other step writes: the file keeps both files' interactions. Run twice at least 2 s apart (the second run's
      // expired token names another expiry): the same bytes. The app's whole suite (app-checks.ts) runs the same two
      // files into pacts/agent-card.json, so it is the second run when its two files ran 2 s or more away from this
      // run (its report says when each ran); only otherwise is the pair run again here, after a pause.
      const pactFiles = ['tests/agent-card-pact.spec.tsx', 'tests/agent-card-errors.spec.tsx'];
      const writeJsdomPact = async (file: string): Promise<{ pact: string; start: number; end: number }> => {
        await rm(join(app, file), { force: true });
        const start = Date.now();
        succeeded(
          await run(appBin('vitest'), ['run', ...pactFiles], app, { PACT_FILE: file }),
          `vitest run ${pactFiles.join(' ')}`,
        );
        return { pact: await readFile(join(app, file), 'utf8'), start, end: Date.now() };
      };
      const firstRun = await writeJsdomPact('pacts/jsdom.json');
      expect(firstRun.pact).toMatch(/expired at 2000-01-01T00:00:00\.000Z/);
      const secondRun = (async () => {
        const { report } = await appSuite();
        const ran = report.testResults.filter((file) => pactFiles.some((name) => file.name.endsWith(name)));
        expect(ran.map((file) => file.status)).toEqual(['passed', 'passed']);
        const pactWritten = (await stat(join(app, 'pacts/agent-card.json'))).mtimeMs;
        const start = Math.min(...ran.map((file) => file.startTime));
        const end = Math.max(pactWritten, ...ran.map((file) => file.endTime));
        if (start >= firstRun.end + 2_000 || end <= firstRun.start - 2_000) {
          console.log('the pact step’s second run: the app suite’s (pacts/agent-card.json)');
          return readFile(join(app, 'pacts/agent-card.json'), 'utf8');
        }
        console.log('the pact step’s second run: its own (the app suite ran its pact files too close to the first)');
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        return (await writeJsdomPact('pacts/jsdom-again.json')).pact;
      })();
      // Awaited below, after the Playwright part; a failure meanwhile is reported there.
      secondRun.catch(() => undefined);
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
      expect(await secondRun, 'the second run’s pact').toBe(firstRun.pact);
      // Both pacts in one verifier run (one start of Pact's core): it exits 1 if any interaction of either fails.
      const pacts = ['pacts/jsdom.json', 'pacts/playwright.json'];
      const verified = await run(process.execPath, ['verify-pact.mjs', fresh, ...pacts], app);
      expect(verified.status, `${verified.stdout}\n${verified.stderr}`).toBe(0);
      for (const pact of pacts) expect(verified.stdout).toContain(`verified ${pact}`);
    } finally {
      stopGroups(started);
    }
  });
}
