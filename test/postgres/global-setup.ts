// One PostgreSQL cluster for every test file that needs one (vitest globalSetup): started only when the run may
// include such a file, and stopped when the run ends, failed or not.
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from '../support/postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the shared cluster's `postgres` database (with its password); '' when this run started none. */
    postgresUrl: string;
  }
}

/** Test files that use PostgreSQL have `postgres` in their path. */
const mayNeedPostgres = (): boolean => {
  const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('-') && !['run', 'watch'].includes(arg));
  return filters.length === 0 || filters.some((filter) => /postgres|replica/i.test(filter));
};

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  project.provide('postgresUrl', '');
  if (!mayNeedPostgres()) return undefined;
  const cluster = await startPostgresCluster();
  project.provide('postgresUrl', cluster.url());
  return () => cluster.destroy();
}
