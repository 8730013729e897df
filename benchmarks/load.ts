// Drives load with autocannon and condenses runs: req/s, latency percentiles, the server's CPU share; the bench's log line.
import autocannon from 'autocannon';
import { getOperation, type OperationId } from '../spec/index.ts';
import { LOG_PREFIX } from '../mocks/domain/logger.ts';
import { cpuSecondsOf } from '../test/support/spawned-server.ts';
import { headers, requestBody, type Started } from './servers.ts';
import { primaryCreation } from '../verifier-client/requests/linked-operations.ts';
import { fillPath, findPathValues, type PathValues } from '../verifier-client/requests/path-parameters.ts';

let current: autocannon.Instance | undefined;

/** Stops the load run in progress, if any (on a signal or a failure). */
export function stopLoad(): void {
  current?.stop();
}

/** One load run against one server. */
export interface Run {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  /** Share of one core the server used during the run; well under 100 % means the load generator was the limit. */
  serverCpu: number;
  non2xx: number;
  errors: number;
}

/**
 * The request of an operation: method and path from the spec (its path parameters filled with `values`), body its
 * example.
 * @example requestFor(op, { agentId: 'agt_1' }) // { method: 'GET', path: '/v1/agents/agt_1', body: undefined }
 */
export function requestFor(
  op: OperationId,
  values: PathValues,
): { method: string; path: string; body: string | undefined } {
  return { method: getOperation(op).method, path: fillPath(op, values), body: requestBody(op) };
}

/**
 * Valid path values of an operation on a started server: its agent, and whatever else the spec's links say the
 * operation needs (created once here, e.g. a task for an operation on a task), so every operation is measured on
 * something that exists rather than answering 404.
 * @example const values = await pathValuesOn(started, op);
 */
export function pathValuesOn(started: Started, op: OperationId): Promise<PathValues> {
  return findPathValues(
    op,
    async (creator, values) => {
      const request = requestFor(creator, values);
      const response = await fetch(`${started.server.baseUrl}${request.path}`, {
        method: request.method,
        headers: headers(),
        body: request.body,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${started.server.name} answered ${creator} with ${response.status}`);
      return JSON.parse(text) as unknown;
    },
    { [primaryCreation().parameter]: started.agentId },
  );
}

/**
 * One autocannon run; only one runs at a time, so a signal can stop it. `onResponse` is called at every response.
 * @example const result = await load(`${url}/v1/agents/deploy`, { method: 'POST', amount: 1000 });
 */
export function load(
  url: string,
  options: Partial<autocannon.Options>,
  onResponse?: () => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    current = autocannon({ url, timeout: 10, ...options }, (error, result) => {
      current = undefined;
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve(result);
    });
    if (onResponse) current.on('response', onResponse);
  });
}

/**
 * How long a run lasts: a number of seconds, or until `requests` answers came back. A run of a fixed number of
 * requests does the same work from the same state on every target: a timed run of deploys leaves a faster server
 * holding more agents (a bigger heap, a bigger Map) when the next run starts, which penalises whichever is faster.
 */
export type RunLength = number | { requests: number };

/**
 * Runs one operation against a started server for `length` (seconds, or a number of requests).
 * @example const run = await measure(probe, op, 50, 4); run.rps
 * @example const run = await measure(probe, op, 50, { requests: 20_000 }); run.rps
 */
export async function measure(started: Started, op: OperationId, connections: number, length: RunLength): Promise<Run> {
  const request = requestFor(op, await pathValuesOn(started, op));
  const cpuBefore = cpuSecondsOf(started.server.pid);
  // Timed here rather than by autocannon's whole-second `duration`. A run of a fixed number of requests lasts until its
  // last response: autocannon notices the end on its one-second tick, which would make req/s read as requests / whole
  // seconds for every target (the server sits idle until the tick, so its CPU is the same either way).
  const startedAt = performance.now();
  let lastResponseAt = startedAt;
  const result = await load(
    `${started.server.baseUrl}${request.path}`,
    {
      method: request.method as autocannon.Request['method'],
      headers: { ...headers(), ...started.extraHeaders },
      body: request.body,
      connections,
      ...(typeof length === 'number' ? { duration: length } : { amount: Math.max(length.requests, connections) }),
    },
    typeof length === 'number'
      ? undefined
      : () => {
          lastResponseAt = performance.now();
        },
  );
  const endedAt = typeof length === 'number' ? performance.now() : lastResponseAt;
  const seconds = Math.max(endedAt - startedAt, 1) / 1000;
  return {
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    serverCpu: Math.round((100 * (cpuSecondsOf(started.server.pid) - cpuBefore)) / seconds),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * The median; NaN for no values.
 * @example median([3, 1, 2]) // 2
 */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Bytes to MB, one decimal. */
export const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
/** A figure for the tables: thousands separated, `n/a` when not measured. */
export const fmt = (value: number, digits = 0): string =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';
/** Progress on stderr, so stdout holds only the report. */
export const log = (line: string): void => void process.stderr.write(`${LOG_PREFIX} ${line}\n`);
