// The contract suite's own vitest config, rooted here: its runner (suite-runner.ts) runs it against a live server, never `npm test`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('./', import.meta.url)),
    // The suite's own files: .ts in a clone of the repository, .js where the package ships it compiled.
    include: ['*.test.ts', '*.test.js'],
    maxWorkers: 1,
    // The files share nothing that matters between them, so one worker loads the spec and its validators once.
    isolate: false,
    testTimeout: 300_000,
    hookTimeout: 60_000,
    // Retries would hide a flaky server; a contract verdict must be what happened.
    retry: 0,
  },
});
