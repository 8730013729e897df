// The consumer's React app built and driven as an app's CI would: Vite builds with and without the fake (msw's worker
// only in the mock-enabled one), and Playwright with 4 workers against one `serve`, whose sessions keep colliding
// tests apart. Registered in consumer.test.ts's describe; reads `scratch` when its tests run.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { chromiumExecutable } from '../browser/chromium.ts';
import { freePort } from '../support/spawned-server.ts';
import { appBin, type Run, run, scratch, succeeded } from './scratch-app.ts';

/** Registers the steps; call it inside consumer.test.ts's describe. */
export function appBuildSteps(): void {
  // msw init public/ --save (beforeAll) put the worker the mock-enabled build ships into public/.
  it('builds the React app with Vite: with the fake when VITE_MOCK=true (a mock-enabled preview build), without it otherwise', async () => {
    const { app } = scratch;
    const build = async (outDir: string, env: NodeJS.ProcessEnv): Promise<string> => {
      const result = succeeded(
        await run(appBin('vite'), ['build', '--outDir', outDir, '--logLevel', 'warn'], app, env),
        `vite build --outDir ${outDir}`,
      );
      expect(result.stderr).not.toMatch(/error/i);
      const html = await readFile(join(app, outDir, 'index.html'), 'utf8');
      expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/);
      const assets = join(app, outDir, 'assets');
      const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
      return (await Promise.all(scripts.map((name) => readFile(join(assets, name), 'utf8')))).join('\n');
    };
    const mocked = await build('site-mock', { VITE_MOCK: 'true' });
    expect((await stat(join(app, 'site-mock', 'mockServiceWorker.js'))).isFile()).toBe(true);
    expect(mocked).toContain('mockServiceWorker');
    // The production build leaves the kit out: the worker is only imported behind VITE_MOCK.
    expect(await build('site', {})).not.toContain('mockServiceWorker');
  });

  // Two Playwright runs of 4 browsers each: far longer than the other steps on a loaded machine.
  it('runs Playwright with 4 workers against one serve: colliding tests pass with sessions and fail without', {
    timeout: 900_000,
  }, async () => {
    const { app, work } = scratch;
    const playwright = async (sessions: 'on' | 'off'): Promise<{ run: Run; results: Record<string, string> }> => {
      const port = await freePort();
      const json = join(work, `playwright-${sessions}.json`);
      const run_ = await run(
        join(app, 'node_modules', '.bin', 'playwright'),
        ['test', '-c', 'e2e/playwright.config.ts'],
        app,
        // The browser tests' Chromium (the system's, else the packaged one), which the app's config launches.
        { MOCK_PORT: String(port), MOCK_SESSIONS: sessions, PW_JSON: json, CHROMIUM: await chromiumExecutable() },
      );
      const report = JSON.parse(await readFile(json, 'utf8')) as {
        suites: { specs: { title: string; ok: boolean }[] }[];
      };
      const specs = report.suites.flatMap((suite) => suite.specs);
      return {
        run: run_,
        results: Object.fromEntries(specs.map((spec) => [spec.title, spec.ok ? 'passed' : 'failed'])),
      };
    };
    const on = await playwright('on');
    expect(on.results, `${on.run.stdout}\n${on.run.stderr}`).toEqual({
      'a paused agent refuses tasks (409)': 'passed',
      'an active agent accepts tasks (200)': 'passed',
      'a 500 scenario on getAgent shows the error': 'passed',
      'an agent seeded by this test is there': 'passed',
      'the deploy form posted its name and revenue share (waitForRequest)': 'passed',
      'this session’s requests are this test’s own (requests)': 'passed',
    });
    expect(on.run.status).toBe(0);
    expect(on.run.stdout).toMatch(/6 passed/);
    expect(on.run.stdout).toMatch(/using 4 workers/);
    // The same tests on the shared default session: another test's reset, pause or 500 scenario leaks into them. Which
    // ones fail depends on when each worker's reset lands, so the check is that some do, each with a leaked answer.
    const off = await playwright('off');
    expect(Object.values(off.results).filter((result) => result === 'failed').length, off.run.stdout).toBeGreaterThan(
      0,
    );
    // A leaked answer: the task's bare status, the 500 problem's title, or a retrieve that came back 200 with an agent's
    // name because another worker's reset removed the 500 scenario.
    expect(off.run.stdout).toMatch(/Received string: {2}"(409|500 Internal server error|200|200 [^"]+)"/);
    expect(off.run.status).toBe(1);
  });
}
