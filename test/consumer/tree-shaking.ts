// What an app's production bundle carries of the kit: a Vite build of a page that imports from `agent-registry-kit/spec`
// carries the enum it renders and neither the OpenAPI document nor a validator; the mock-enabled app, no devtools panel.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { appBin, run, scratch, succeeded } from './scratch-app.ts';

/** Registers the step; call it inside consumer.test.ts's describe. */
export function treeShakingSteps(): void {
  it('bundles an enum imported from /spec without the document or the validators (Vite production build)', async () => {
    const page = join(scratch.app, 'enum-page');
    await mkdir(page);
    await writeFile(
      join(page, 'index.html'),
      '<div id="app"></div>\n<script type="module" src="./main.js"></script>\n',
    );
    await writeFile(
      join(page, 'main.js'),
      "import { agentStatuses } from 'agent-registry-kit/spec';\n" +
        "document.querySelector('#app').textContent = agentStatuses.join(' / ');\n",
    );
    succeeded(
      await run(appBin('vite'), ['build', 'enum-page', '--logLevel', 'warn'], scratch.app),
      'vite build enum-page',
    );
    const assets = join(page, 'dist', 'assets');
    const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
    const bundle = (await Promise.all(scripts.map((name) => readFile(join(assets, name), 'utf8')))).join('\n');
    // The enum, as rendered.
    expect(bundle).toMatch(/(["'`])active\1,\s*\1paused\1,\s*\1deprecated\1/);
    // Not the document (its title, its assumptions), nor a validator (ajv's messages, its formats, its code generator).
    for (const marker of ['Agent Registry API', 'x-assumption', 'must have required property', 'fullFormats', 'ajv'])
      expect(bundle, marker).not.toContain(marker);
  });

  // The app's web/main.tsx asks for the panel with `devtools: import.meta.env.DEV`; the mock-enabled production build
  // (VITE_MOCK=true vite build) ships the worker and the fake, and no byte of the panel: no chunk of it, no Preact.
  it('leaves the devtools panel out of a production build that ships the fake (VITE_MOCK=true vite build)', async () => {
    succeeded(
      // NODE_ENV as a user's shell has it for `vite build` (vitest's own `test` would make the build a development one).
      await run(appBin('vite'), ['build', '--outDir', 'site-no-devtools', '--logLevel', 'warn'], scratch.app, {
        VITE_MOCK: 'true',
        NODE_ENV: 'production',
      }),
      'vite build --outDir site-no-devtools',
    );
    const assets = join(scratch.app, 'site-no-devtools', 'assets');
    const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
    const bundle = (await Promise.all(scripts.map((name) => readFile(join(assets, name), 'utf8')))).join('\n');
    expect(bundle).toContain('mockServiceWorker');
    // The panel's host element, its toggle's label, its style sheet's classes, the console's views.
    for (const marker of ['agent-registry-kit-devtools', 'Mock console', 'devtools-toggle', 'Decided by'])
      expect(bundle, marker).not.toContain(marker);
  });
}
