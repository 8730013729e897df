// The consumer app's Storybook, as docs/testing-your-app.md's recipe sets it up: msw-storybook-addon's worker, and a
// fake of the packed kit for each story (createStoryFake, from the story's parameters). `storybook build`, then each
// story's iframe in Chromium: the catalogue agent's story shows that agent's name, and the story whose scenario makes
// getAgent answer 500 shows the 500 and its problem's title, each answered by the page's Service Worker.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createMockCore } from '../../mocks/assembly/mock-core.ts';
import { chromiumPresent, launchChromium } from '../browser/chromium.ts';
import { serveStatic } from '../browser/static-server.ts';
import { appBin, run, scratch, succeeded } from './scratch-app.ts';

/** The agent of the default seed's catalogue that stories/AgentCard.stories.tsx shows. */
const CATALOGUE_AGENT = 'agt_WCC01FaiMscDbRzp';

interface Shown {
  heading: string | null;
  alert: string | null;
  alertTitle: string | null;
  /** Every /v1 answer the page got: its status, and whether the Service Worker gave it. */
  answers: [number, boolean][];
}

/** Registers the Storybook steps (called inside consumer.test.ts's concurrent describe). */
export function storybookSteps(): void {
  it.skipIf(!chromiumPresent)(
    'builds Storybook with msw-storybook-addon and renders two stories in Chromium, each on a fake of its own',
    async () => {
      const app = scratch.app;
      // The recipe's code type-checks as the app's does (Storybook's own .d.ts files are left unchecked: they do not
      // pass tsc under skipLibCheck false).
      const types = await run(appBin('tsc'), ['-p', 'tsconfig.storybook.json'], app);
      expect(`${types.stdout}${types.stderr}`, 'tsc -p tsconfig.storybook.json').toBe('');
      // --test: the stories alone, without the docs pages; the telemetry is off in .storybook/main.ts too.
      succeeded(
        await run(appBin('storybook'), ['build', '--output-dir', 'storybook-static', '--quiet', '--test'], app, {
          STORYBOOK_DISABLE_TELEMETRY: '1',
        }),
        'storybook build',
      );
      const site = await serveStatic(join(app, 'storybook-static'));
      const browser = await launchChromium();
      const show = async (story: string): Promise<Shown> => {
        const page = await browser.newPage();
        const answers: [number, boolean][] = [];
        page.on('response', (response) => {
          if (new URL(response.url()).pathname.startsWith('/v1/'))
            answers.push([response.status(), response.fromServiceWorker()]);
        });
        await page.goto(`${site.origin}/iframe.html?id=agentcard--${story}&viewMode=story`);
        await page.locator('#storybook-root h2, #storybook-root [role="alert"]').first().waitFor({ timeout: 60_000 });
        const text = async (selector: string): Promise<string | null> =>
          (await page.locator(selector).count()) === 0 ? null : page.locator(selector).textContent();
        const alertTitle =
          (await page.locator('[role="alert"]').count()) === 0
            ? null
            : await page.locator('[role="alert"]').getAttribute('title');
        const shown = { heading: await text('h2'), alert: await text('[role="alert"]'), alertTitle, answers };
        await page.close();
        return shown;
      };
      try {
        const name = createMockCore().store.get(CATALOGUE_AGENT)?.name;
        expect(name).toBeTruthy();
        expect(await show('from-the-catalogue')).toEqual({
          heading: name,
          alert: null,
          alertTitle: null,
          answers: [[200, true]],
        });
        expect(await show('when-get-agent-fails')).toEqual({
          heading: null,
          alert: 'The registry is having trouble (500).',
          alertTitle: 'Internal server error',
          answers: [[500, true]],
        });
      } finally {
        await browser.close();
        await site.close();
      }
    },
  );
}
