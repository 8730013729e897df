// The in-page devtools panel in the consumer's Vite app, from the packed kit: a development build with the fake
// (`VITE_MOCK=true vite build --mode development`, what the dev server runs) opened in Chromium shows the panel's
// toggle; the panel, once open, lists the getAgent request the app made and, live, a request made after it. The
// production build carrying none of it is tree-shaking.ts's step.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { chromiumPresent, launchChromium } from '../browser/chromium.ts';
import { serveStatic } from '../browser/static-server.ts';
import { appBin, run, scratch, succeeded } from './scratch-app.ts';

/** Registers the step; call it inside consumer.test.ts's describe. */
export function devtoolsSteps(): void {
  it.skipIf(!chromiumPresent)(
    'opens the devtools panel over the Vite app (development build) and shows the requests the app made, live',
    async () => {
      const app = scratch.app;
      succeeded(
        await run(
          appBin('vite'),
          ['build', '--mode', 'development', '--outDir', 'site-devtools', '--logLevel', 'warn'],
          app,
          { VITE_MOCK: 'true', NODE_ENV: 'development' },
        ),
        'vite build --mode development',
      );
      const site = await serveStatic(join(app, 'site-devtools'));
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(String(error)));
        await page.goto(site.origin);
        // The app rendered its agent (answered by the worker), and the panel's toggle is there, in its shadow root.
        await page.locator('#out h2').waitFor({ timeout: 60_000 });
        const host = page.locator('#agent-registry-kit-devtools');
        expect(await host.evaluate((element) => element.shadowRoot !== null)).toBe(true);
        await host.getByRole('button', { name: 'Mock console' }).click();
        const rows = host.locator('table.exchanges tbody tr');
        await rows.filter({ hasText: 'getAgent' }).first().waitFor({ timeout: 30_000 });
        expect(await rows.filter({ hasText: 'getAgent' }).first().textContent()).toContain(
          '/v1/agents/agt_WCC01FaiMscDbRzp',
        );
        // A request made after the panel opened appears without a reload: the panel reads the worker's own journal.
        await page.evaluate(async () => {
          const kit = (window as unknown as { agentRegistryKit: { mintToken(): Promise<string> } }).agentRegistryKit;
          const token = await kit.mintToken();
          await fetch('/v1/agents/agt_missingFromThePanel', { headers: { authorization: `Bearer ${token}` } });
        });
        await rows.filter({ hasText: 'agt_missingFromThePanel' }).first().waitFor({ timeout: 10_000 });
        expect(await rows.filter({ hasText: 'agt_missingFromThePanel' }).first().textContent()).toContain('404');
        // The app's own page keeps its styles: the panel's sheet lives in the shadow root only.
        expect(await page.evaluate(() => document.styleSheets.length)).toBe(0);
        expect(errors).toEqual([]);
        await page.close();
      } finally {
        await browser.close();
        await site.close();
      }
    },
  );
}
