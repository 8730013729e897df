// The contract run the mutation test makes against each mutant of the fake: `contract --seed-only` with a fixed seed
// (a run is repeatable, so a mutant is killed or not whatever the day), built by the CLI's own readArgs.
import { readArgs } from '../../scripts/commands/contract.ts';
import type { RunOptions } from '../../contract-tests/run-options.ts';
import { MAX_TOKEN_LIFETIME_SECONDS, mintToken } from '../../mocks/core/request/auth.ts';

/** A host nothing resolves (the reserved .test domain): only the in-process interceptor can answer it. */
const MUTATION_BASE_URL = 'https://agent-registry.mutation.test';

/** The fast-check seed of the generated cases; fixed, so every mutant meets the same requests. */
const MUTATION_SEED = 20261201;

/** Generated cases per property: fewer than the CLI's default, since the named checks hold most of the suite's power. */
const MUTATION_RUNS = 5;

/**
 * The options of one mutation run: what `contract --seed-only --seed S --runs R` would make, with a token the fake
 * accepts for the longest lifetime it allows (a full mutation run takes longer than the default hour).
 * @example vitest.provide('contractOptions', await mutationOptions());
 */
export async function mutationOptions(seed = MUTATION_SEED): Promise<RunOptions> {
  const token = await mintToken({ ttlSeconds: MAX_TOKEN_LIFETIME_SECONDS });
  return readArgs(['--seed-only', '--seed', String(seed), '--runs', String(MUTATION_RUNS)], {
    API_BASE_URL: MUTATION_BASE_URL,
    API_TOKEN: token,
  }).options;
}
