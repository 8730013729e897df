// Which Chromium the browser tests launch: the system's when it has one, the npm package's otherwise.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { chooseChromium, chromiumExecutable, type PackagedChromium } from './chromium.ts';

const packaged: PackagedChromium = {
  archive: '/repo/node_modules/@sparticuz/chromium/bin/chromium.br',
  version: '153.0.0',
};
const holding =
  (...paths: string[]) =>
  (path: string): boolean =>
    paths.includes(path);

describe('chooseChromium', () => {
  it("takes Debian's /usr/bin/chromium when the system has it, even with the package installed", () => {
    expect(chooseChromium(undefined, holding('/usr/bin/chromium'), packaged)).toEqual({
      kind: 'system',
      path: '/usr/bin/chromium',
    });
  });

  it('takes the packaged Chromium when the system has none', () => {
    expect(chooseChromium(undefined, holding(), packaged)).toEqual({ kind: 'packaged', ...packaged });
  });

  it('takes CHROMIUM_PATH when set, and nothing else when it names no file', () => {
    expect(chooseChromium('/opt/chrome', holding('/opt/chrome', '/usr/bin/chromium'), packaged)).toEqual({
      kind: 'system',
      path: '/opt/chrome',
    });
    expect(chooseChromium('/opt/chrome', holding('/usr/bin/chromium'), packaged)).toBeUndefined();
  });

  it('says there is none without the system browser or the package', () => {
    expect(chooseChromium(undefined, holding(), undefined)).toBeUndefined();
  });
});

describe('chromiumExecutable', () => {
  it('gives a Chromium that runs on this machine', async () => {
    const path = await chromiumExecutable();
    expect(execFileSync(path, ['--version']).toString()).toMatch(/^Chromium \d+\./);
  });
});
