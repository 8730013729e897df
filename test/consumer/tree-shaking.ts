// What importing from `agent-registry-kit/spec` puts in an app's production bundle: a Vite build of a page that
// renders one enum carries that enum's values, and neither the OpenAPI document nor a validator (generated or ajv).
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
}
