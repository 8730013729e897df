// The vitest config Stryker runs for each mutant (stryker.config.mjs): the contract suite's own files and settings
// (contract-tests/vitest.config.ts), with the fake started in the same worker (fake-in-process.setup.ts) and the
// options of `contract --seed-only` at a fixed seed. Not a project of vitest.config.ts: `npm run mutation` runs it.
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import contractConfig from '../../contract-tests/vitest.config.ts';
import { mutationOptions } from './mutation-options.ts';

export default defineConfig(async () =>
  mergeConfig(contractConfig, {
    test: {
      name: 'mutation',
      setupFiles: [fileURLToPath(new URL('./fake-in-process.setup.ts', import.meta.url))],
      provide: { contractOptions: await mutationOptions() },
    },
  }),
);
