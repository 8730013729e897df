// The repository runs on its own pinned Node, the `node` devDependency that npm scripts put first on PATH; the package's
// `engines` states something else, the oldest Node an app may use it on.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

it('runs on exactly the Node that package.json pins as the node devDependency', () => {
  expect(process.versions.node).toBe(manifest.devDependencies.node);
});
