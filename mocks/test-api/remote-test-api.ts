// The test API over HTTP: the same calls as `server.api`, sent to a running fake's control plane (the standalone
// server, `agent-registry-kit serve`, or a Playwright webServer), which checks them with the same validators.
import type { ValidationError } from '../../spec/index.ts';
import { MockInputError } from '../domain/input-error.ts';
import { clockStepProblem } from '../domain/clock.ts';
import { CONTROL_TOKEN_HEADER } from '../http/request-guards.ts';
import { OverrideError, overrideProblemPath } from '../core/steering/overrides.ts';
import { pactOptionErrors, writingPact, type MockTestApi } from './test-api.ts';
import { writePactFile } from '../pact-export/pact-file.ts';
import type { RecordedRequest } from '../core/steering/recorded-requests.ts';
import { checkTimeout, createRequestReading } from './request-reading.ts';

export interface RemoteTestApiOptions {
  /** The fake's origin, e.g. the `url` startMockServer resolves with. */
  baseUrl: string;
  /** Headers sent with every control-plane call (a session id, say). */
  headers?: Record<string, string>;
  /**
   * The fake's `--control-token`, sent as `X-Mock-Control-Token` with every call. Default: the MOCK_CONTROL_TOKEN
   * environment variable under Node, the variable the fake itself reads, so one export serves both.
   */
  controlToken?: string;
  /**
   * The fetch to use (default: globalThis.fetch at each call, so a test's stub is honoured). The calls carry msw's
   * passthrough mark: an msw server or worker in the same process lets them through to the running fake.
   */
  fetch?: typeof fetch;
  /**
   * Milliseconds each call may take (default 30000, more than 0 and at most 2^31 − 1): a fake that stops answering
   * makes the call reject after it, rather than hang the test.
   */
  timeout?: number;
}

/** How long one control-plane call may take by default, in milliseconds. */
const DEFAULT_CALL_MS = 30_000;
/** The timers of the module's load: a test's fake timers never stop a call's deadline. */
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/** A field error of a control-plane problem; a refused override's also name the rule and where it lives. */
type RefusedField = ValidationError & { rule?: string; specPointer?: string };

interface Refusal {
  status: number;
  errors: RefusedField[];
  detail: string;
}

/**
 * The Accept of every control-plane call: `msw/passthrough` is msw's own mark for a request its interception lets
 * through untouched (what its `bypass()` sets, removed before sending), so a test whose msw server runs with
 * `onUnhandledFrame: 'error'` can still drive a standalone fake: these calls are meant for the network.
 */
const PASS_MSW = 'application/json, msw/passthrough';

/** MOCK_CONTROL_TOKEN when running under Node; a browser bundle has no `process` and no such variable. */
function environmentControlToken(): string | undefined {
  const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return environment?.MOCK_CONTROL_TOKEN?.trim() || undefined;
}

async function refusal(response: Response): Promise<Refusal> {
  const text = await response.text();
  let problem: { errors?: RefusedField[]; detail?: string } = {};
  try {
    problem = JSON.parse(text) as typeof problem;
  } catch {
    // not problem+json: the text itself says what went wrong
  }
  return { status: response.status, errors: problem.errors ?? [], detail: problem.detail ?? text.slice(0, 500) };
}

/** The OverrideError the in-process API throws for the same override: each problem's path, message, rule and pointer. */
function overrideRefused(status: number, errors: RefusedField[]): OverrideError {
  return new OverrideError(
    `The override (answered ${status})`,
    errors.map(({ path, message, rule = 'refused', specPointer = '' }) => ({
      path: overrideProblemPath(path, rule),
      message: message.endsWith(` (rule ${rule} at ${specPointer})`)
        ? message.slice(0, -` (rule ${rule} at ${specPointer})`.length)
        : message,
      rule,
      specPointer,
    })),
  );
}

/**
 * A MockTestApi that drives a running fake through its control plane; a refused call throws the error the in-process
 * API would (MockInputError, or OverrideError for an override), with the server's field errors.
 * @example
 * const { url } = await startMockServer({ port: 0 });
 * const api = connectTestApi({ baseUrl: url });
 * await api.override(operationId, 409);
 */
export function connectTestApi(options: RemoteTestApiOptions): MockTestApi {
  const base = options.baseUrl.replace(/\/+$/, '');
  const controlToken = options.controlToken ?? environmentControlToken();
  const headers = {
    ...(controlToken !== undefined && { [CONTROL_TOKEN_HEADER]: controlToken }),
    ...options.headers,
  };
  const callTimeout = options.timeout ?? DEFAULT_CALL_MS;
  checkTimeout('The test API options', callTimeout);
  async function callText(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<string> {
    const send = options.fetch ?? globalThis.fetch;
    const deadline = new AbortController();
    const timer = realSetTimeout(() => deadline.abort(), callTimeout);
    const signals = signal === undefined ? deadline.signal : AbortSignal.any([deadline.signal, signal]);
    try {
      const response = await send(`${base}${path}`, {
        method,
        headers: { accept: PASS_MSW, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: signals,
      });
      if (response.ok) return await response.text();
      return await refused(method, path, response);
    } catch (error) {
      if (deadline.signal.aborted)
        throw new Error(`${method} ${path}: the fake did not answer within ${callTimeout} ms`);
      throw error;
    } finally {
      realClearTimeout(timer);
    }
  }
  async function refused(method: string, path: string, response: Response): Promise<never> {
    const { status, errors, detail } = await refusal(response);
    const listed = errors.length > 0 ? errors : [{ path: '', message: detail }];
    if (path === '/__mock/overrides') throw overrideRefused(status, listed);
    throw new MockInputError(
      `${method} ${path} (answered ${status})`,
      listed.map(({ path, message }) => ({ path, message })),
    );
  }
  async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const text = await callText(method, path, body, signal);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
  const listRequests = async (operationId: string, after: number, signal?: AbortSignal) =>
    (
      await call<{ requests: RecordedRequest[] }>(
        'GET',
        `/__mock/requests?operation=${operationId}&after=${after}`,
        undefined,
        signal,
      )
    ).requests;
  return {
    ...createRequestReading(listRequests, 50),
    async override(operation, status, body, overrideOptions) {
      await call('PUT', '/__mock/overrides', { operation, status, body, ...overrideOptions });
    },
    async overrideUnchecked(operation, status, body, overrideOptions) {
      await call('PUT', '/__mock/overrides', { operation, status, body, ...overrideOptions, unchecked: true });
    },
    seedAgent: (fields = {}) => call('POST', '/__mock/agents', fields),
    seedTask: (fields) => call('POST', '/__mock/tasks', fields),
    task: (taskId) => call('GET', `/__mock/tasks/${encodeURIComponent(taskId)}`),
    setAgentStatus: (agentId, status) =>
      call('PUT', `/__mock/agents/${encodeURIComponent(agentId)}/status`, { status }),
    async setScenarios(config) {
      await call('PUT', '/__mock/scenarios', config);
    },
    async advanceClock(ms) {
      // Checked here as the core checks it (the server knows the room left; the step itself is known here).
      const problem = clockStepProblem(ms, 0);
      if (problem !== undefined) throw new MockInputError('The clock step', [{ path: '/ms', message: problem }]);
      await call('POST', '/__mock/clock/advance', { seconds: ms / 1000 });
    },
    async reset() {
      await call('POST', '/__mock/reset');
    },
    async writePact(pactOptions) {
      const errors = pactOptionErrors(pactOptions);
      if (errors.length > 0) throw new MockInputError('The pact options', errors);
      const query = new URLSearchParams({
        consumer: pactOptions.consumer,
        provider: pactOptions.provider,
        version: String(pactOptions.pactSpecification ?? 4),
      });
      const text = await callText('GET', `/__mock/pact?${query}`);
      const written = await writingPact(() => writePactFile(pactOptions.file, text));
      return { file: pactOptions.file, interactions: written.interactions };
    },
  };
}
