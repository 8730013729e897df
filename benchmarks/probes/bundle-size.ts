// What importing one enum from `agent-registry-kit/spec` costs an app's production bundle: in an app with the packed
// kit and Vite installed, a Vite production build of a tiny page that renders `agentStatuses`, and of the same page
// rendering a literal list instead. Prints each build's JavaScript (bytes, and gzipped) and the difference in kB.
// Runs alone: `node benchmarks/probes/bundle-size.ts`.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { devVersion, load, packedApp } from './packed-app.ts';

const page = '<!doctype html>\n<div id="app"></div>\n<script type="module" src="./main.js"></script>\n';
const pages = {
  without: `document.querySelector('#app').textContent = ['active', 'paused'].join(', ');\n`,
  with: `import { agentStatuses } from 'agent-registry-kit/spec';\ndocument.querySelector('#app').textContent = agentStatuses.join(', ');\n`,
};

const loadBefore = load();
const app = await packedApp([`vite@${await devVersion('vite')}`]);
try {
  const sizes: Record<string, { bytes: number; gzip: number }> = {};
  for (const [name, main] of Object.entries(pages)) {
    await app.write(`${name}/index.html`, page);
    await app.write(`${name}/main.js`, main);
    await app.node('node_modules/vite/bin/vite.js', ['build', name, '--logLevel', 'warn']);
    const assets = join(app.dir, name, 'dist', 'assets');
    const scripts = (await readdir(assets)).filter((file) => file.endsWith('.js'));
    const code = Buffer.concat(await Promise.all(scripts.map((file) => readFile(join(assets, file)))));
    sizes[name] = { bytes: code.length, gzip: gzipSync(code).length };
    console.log(`${name} the enum: ${code.length} bytes of JavaScript (${sizes[name].gzip} gzipped)`);
  }
  const kB = (bytes: number): string => (bytes / 1000).toFixed(2);
  const [withEnum, without] = [sizes.with, sizes.without];
  if (!withEnum || !without) throw new Error('a build is missing');
  console.log(
    `importing agentStatuses from agent-registry-kit/spec adds ${kB(withEnum.bytes - without.bytes)} kB ` +
      `(${kB(withEnum.gzip - without.gzip)} kB gzipped) to a Vite production build; load ${loadBefore} -> ${load()}`,
  );
} finally {
  await app.remove();
}
