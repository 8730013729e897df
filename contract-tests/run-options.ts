// The options of one contract run as scripts/contract.ts hands them to the suite (vitest `provide`), with their defaults.
import type { CheckRecord } from './check-record.ts';

/** How the suite is pointed at a server and how far it may go. */
export interface RunOptions {
  /** The `{base_url}`, without `/v1` and without a trailing slash. */
  baseUrl: string;
  /** The bearer token; only ever held in memory, never printed. */
  token: string;
  /** Cap on POST requests (every POST counts, generated cases and shrinking included). */
  maxWrites: number;
  /** Send only GETs and requests that a correct server rejects. */
  readOnly: boolean;
  /** An existing agent (API_AGENT_ID), used for retrieve and execute when nothing may be deployed. */
  agentId: string | undefined;
  /** Failures of rules that come from an assumption of the spec become warnings. */
  seedOnly: boolean;
  /** Generated cases per property. */
  runs: number;
  /** fast-check seed of the generated cases. */
  seed: number;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  /** Replays one generated failure: `<property>:<fast-check path>`, as printed with the failure. */
  replay: string | undefined;
}

/** Defaults the CLI starts from; maxWrites is derived from the plan when not given (see check-plan.ts). */
export const defaultRunOptions = {
  runs: 25,
  timeoutMs: 10_000,
} as const;

declare module 'vitest' {
  interface ProvidedContext {
    contractOptions: RunOptions;
  }
  interface TaskMeta {
    contract?: CheckRecord;
  }
}
